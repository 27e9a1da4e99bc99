import type { ApiKeyRecord, MembershipRecord, UserRecord, WorkspaceRecord } from '../../domain/entities.js';
import { ApiKey, Member, User, Workspace } from '../contract/schemas/identity.js';
import { declared } from './declared.js';

export const presentUser = (user: UserRecord) => declared(User, user);
export const presentWorkspace = (workspace: WorkspaceRecord) => declared(Workspace, workspace);
export const presentMember = (member: MembershipRecord) => declared(Member, member);
export const presentApiKey = (apiKey: ApiKeyRecord) => declared(ApiKey, apiKey);
