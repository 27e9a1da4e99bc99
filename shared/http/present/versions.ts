import type { VersionRecord } from '../../domain/posts.js';
import { Version } from '../contract/schemas/posts.js';
import { declared } from './declared.js';

export const presentVersion = (version: VersionRecord) => declared(Version, version);
