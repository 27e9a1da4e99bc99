import type { ApiKeyRecord, ProfileRecord, SessionRecord } from '../domain/entities.js';

/** Who is calling: a user through a session, or a workspace through an API key. */
export type Principal =
  | { kind: 'session'; userId: string; session: SessionRecord }
  | { kind: 'api_key'; workspaceId: string; apiKey: ApiKeyRecord };

export interface AuthContext {
  principal: Principal | undefined;
  /** The profile named by X-Profile-Id, once the principal is known to be allowed to act as it. */
  actingProfile: ProfileRecord | undefined;
}
