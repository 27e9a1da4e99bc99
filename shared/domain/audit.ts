/**
 * The workspace audit log (API.md "Accountable agents"): every successful write by a credential
 * of a workspace, as the write stamped it on the item it wrote (`written_by`), recorded by a
 * stream consumer one partition per workspace per day and kept 90 days.
 */

export const AUDIT_ACTOR_KINDS = ['session', 'api_key', 'oauth'] as const;
export type AuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number];

export interface AuditActor {
  kind: AuditActorKind;
  user_id?: string;
  api_key_id?: string;
  oauth_grant_id?: string;
  client_name?: string;
}

export interface AuditTarget {
  type: string;
  id: string;
}

/**
 * What a write stamps on the item it wrote: the audit entry, with the workspace it belongs to.
 * `route` is the route's handler (its module under functions/, unique per route): the consumer
 * names the operation from the route table, which the API's Lambdas do not carry.
 */
export interface WrittenBy {
  /**
   * A tool call's own id, on the writes of the MCP endpoint's tool calls only: the calls of one
   * MCP request are entries of their own while they share its `request_id`. Absent elsewhere (the
   * entry's id is the request's), so a plain write's item carries no second id.
   */
  entry_id?: string;
  request_id: string;
  at: string;
  workspace_id: string;
  actor: AuditActor;
  acting_profile_id: string | null;
  route: string;
  target: AuditTarget;
  ip_prefix: string | null;
}

/** A request's stamp before its write names the target (and, for some, the workspace). */
export type PendingStamp = Omit<WrittenBy, 'target' | 'workspace_id'> & { workspace_id: string | undefined };

/** One entry of the audit log as listed: its id is its write's (the request's, or a tool call's in an MCP request). */
export interface AuditEntry {
  id: string;
  at: string;
  actor: AuditActor;
  acting_profile_id: string | null;
  action: string;
  target: AuditTarget;
  ip_prefix: string | null;
  request_id: string;
}

export const AUDIT_RETENTION_DAYS = 90;

/** The part of a principal the actor is made of (structural, so the domain imports no auth code). */
export type AuditCredential =
  | { kind: 'session'; userId: string }
  | { kind: 'api_key'; apiKey: { id: string }; oauth?: { grantId: string; clientName: string } | undefined };

export const auditActorOf = (credential: AuditCredential): AuditActor =>
  credential.kind === 'session'
    ? { kind: 'session', user_id: credential.userId }
    : credential.oauth
      ? { kind: 'oauth', oauth_grant_id: credential.oauth.grantId, client_name: credential.oauth.clientName }
      : { kind: 'api_key', api_key_id: credential.apiKey.id };

/** The UTC day an entry is filed under (its partition). */
export const auditDayOf = (at: string): string => at.slice(0, 10);

/** The day before `day` (YYYY-MM-DD, UTC). */
export const dayBefore = (day: string): string =>
  new Date(Date.parse(`${day}T00:00:00.000Z`) - 86_400_000).toISOString().slice(0, 10);

/** The oldest day still kept on `now`. */
export const oldestKeptDay = (now: Date): string =>
  new Date(now.getTime() - AUDIT_RETENTION_DAYS * 86_400_000).toISOString().slice(0, 10);

/** The id of the entry a stamp records: its tool call's, else its request's. */
export const entryIdOf = (stamp: Pick<WrittenBy, 'entry_id' | 'request_id'>): string =>
  stamp.entry_id ?? stamp.request_id;

export const entryOf = (stamp: WrittenBy, action: string): AuditEntry => ({
  id: entryIdOf(stamp),
  at: stamp.at,
  actor: stamp.actor,
  acting_profile_id: stamp.acting_profile_id,
  action,
  target: stamp.target,
  ip_prefix: stamp.ip_prefix,
  request_id: stamp.request_id,
});
