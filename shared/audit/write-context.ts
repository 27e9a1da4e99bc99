/**
 * The request a write belongs to, for the audit stamp (store/audit-stamp.ts): the HTTP handler
 * runs its route's function inside `runAudited`, and the store's client stamps the first write
 * of the request that has a subject. Only the route's own function runs inside it: the
 * middlewares' writes (rate limits, idempotency records) are not the caller's writes.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { AuditTarget, PendingStamp } from '../domain/audit.js';

export interface AuditScope {
  readonly stamp: PendingStamp;
  /** The write's target as the handler named it, for a write whose item does not say (an outbox event). */
  target?: AuditTarget;
  /** Set when a write carries the stamp (cleared again if that write fails). */
  stamped: boolean;
}

const storage = new AsyncLocalStorage<AuditScope>();

export const runAudited = <T>(stamp: PendingStamp, fn: () => T): T => storage.run({ stamp, stamped: false }, fn);

/**
 * Names the workspace of the running request's write when the middlewares could not (a session
 * acting on a profile named by the path): the check that let the caller act on it knows it.
 */
export function auditWorkspace(workspaceId: string): void {
  const scope = storage.getStore();
  if (scope && scope.stamp.workspace_id === undefined) scope.stamp.workspace_id = workspaceId;
}

/**
 * Names the target of the running request's write, for a write whose first item is no subject
 * (a test event is an outbox item; a consent is a code): the stamp then goes on that item.
 */
export function auditTarget(target: AuditTarget): void {
  const scope = storage.getStore();
  if (scope) scope.target = target;
}

/** The audit scope of the running request's write, when it has one. */
export const auditScope = (): AuditScope | undefined => storage.getStore();
