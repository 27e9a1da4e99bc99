import type { OAuthGrantRecord } from '../../domain/oauth.js';
import { OAuthGrant } from '../contract/schemas/oauth.js';
import { declared } from './declared.js';

export const presentOAuthGrant = (grant: OAuthGrantRecord) => declared(OAuthGrant, grant);
