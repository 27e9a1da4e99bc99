/**
 * The request a write belongs to, for the audit stamp (store/audit-stamp.ts): the HTTP handler
 * runs its route's function inside `runAudited`, and the store's client stamps the first write
 * of the request that has a subject. Only the route's own function runs inside it: the
 * middlewares' writes (rate limits, idempotency records) are not the caller's writes.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { PendingStamp } from '../domain/audit.js';

export interface AuditScope {
  readonly stamp: PendingStamp;
  /** Set when a write carries the stamp (cleared again if that write fails). */
  stamped: boolean;
}

const storage = new AsyncLocalStorage<AuditScope>();

export const runAudited = <T>(stamp: PendingStamp, fn: () => T): T => storage.run({ stamp, stamped: false }, fn);

/** The audit scope of the running request's write, when it has one. */
export const auditScope = (): AuditScope | undefined => storage.getStore();
