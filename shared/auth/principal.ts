import type { ApiKeyRecord, ProfileRecord, SessionRecord } from '../domain/entities.js';

/**
 * Who is calling: a user through a session, or a workspace through an API key. An OAuth access
 * token is a principal of the API key kind (its grant's workspace, profiles and scopes as the
 * key's), so that every scope and acting-profile rule applies to it unchanged; `oauth` says
 * which grant it came from.
 */
export type Principal =
  | { kind: 'session'; userId: string; session: SessionRecord }
  | {
      kind: 'api_key';
      workspaceId: string;
      apiKey: ApiKeyRecord;
      oauth?: { grantId: string; clientId: string; clientName: string };
    };

export type SessionPrincipal = Extract<Principal, { kind: 'session' }>;

export interface AuthContext {
  principal: Principal | undefined;
  /** The profile named by X-Profile-Id, once the principal is known to be allowed to act as it. */
  actingProfile: ProfileRecord | undefined;
}

/**
 * How a route authenticates:
 * - `none`: public; a credential is optional but, when sent, must be valid.
 * - `session`: a user session (owner/admin checks happen in the handler); API keys get 403 session_required.
 * - `credential`: a session or an API key; API keys need `scope`.
 */
export type AuthKind = 'none' | 'session' | 'credential';
