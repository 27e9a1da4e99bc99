import type { ApiKeyRecord, MembershipRecord, UserRecord, WorkspaceRecord } from '../../domain/entities.js';
import { ApiKey, Member, User, Workspace } from '../contract/schemas/identity.js';
import { recoveryCodesLeft, totpEnabled } from '../../domain/second-factor.js';
import { declared, declaredWith } from './declared.js';

export const presentUser = (user: UserRecord) =>
  declaredWith(User, user, { totp_enabled: totpEnabled(user), recovery_codes_left: recoveryCodesLeft(user) });
export const presentWorkspace = (workspace: WorkspaceRecord) => declared(Workspace, workspace);
export const presentMember = (member: MembershipRecord) => declared(Member, member);
export const presentApiKey = (apiKey: ApiKeyRecord) => declared(ApiKey, apiKey);
