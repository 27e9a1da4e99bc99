import { createHash } from 'node:crypto';
import type { Principal } from '../../auth/principal.js';
import { logger } from '../../logger.js';
import { claimIdempotencyKey, completeIdempotencyKey, releaseIdempotencyKey } from '../../store/idempotency.js';
import { ApiError } from '../contract/errors.js';
import type { ApiEvent, ApiMiddleware } from './api-event.js';

export const IDEMPOTENCY_KEEP_SECONDS = 24 * 60 * 60;
/** Longer than any HTTP Lambda may run: a claim older than this belongs to a request that died. */
const LEASE_SECONDS = 60;
const KEY_FORMAT = /^[\x20-\x7e]{1,255}$/;

interface Claimed {
  scope: string;
  keyHash: string;
}
const claims = new WeakMap<object, Claimed>();

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

/** JSON with object keys sorted, so the same body sent with another key order is the same body. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** What a request asks for: the operation, the profile it acts as and its body. */
export function requestFingerprint(event: Pick<ApiEvent, 'routeKey' | 'rawPath' | 'headers' | 'body'>): string {
  return sha256(
    [event.routeKey, event.rawPath, event.headers?.['x-profile-id'] ?? '', canonicalJson(event.body ?? null)].join(
      '\n',
    ),
  );
}

export const credentialScope = (principal: Principal): string =>
  principal.kind === 'session' ? `st_${principal.session.id}` : `sk_${principal.apiKey.id}`;

export const idempotencyKeyHash = (key: string) => sha256(key);

/**
 * `Idempotency-Key` on a create: the first request with a key claims it for 24 h (per
 * credential) and its successful response is kept; a retry with the same key and body gets that
 * response again instead of creating twice. Another body with the key is 422, and a retry that
 * arrives while the first is still running is 409. A failed first request frees the key.
 * Goes last in the stack, so only requests that passed authentication and the acting-profile
 * check claim a key.
 */
export const idempotency = (): ApiMiddleware => ({
  before: async ({ event }) => {
    const key = event.headers?.['idempotency-key'];
    if (key === undefined || !event.auth?.principal) return;
    if (!KEY_FORMAT.test(key)) {
      throw new ApiError('invalid_request', {
        message: 'Invalid Idempotency-Key header.',
        hint: 'Send Idempotency-Key as 1 to 255 printable ASCII characters, e.g. a UUID.',
      });
    }
    const scope = credentialScope(event.auth.principal);
    const keyHash = idempotencyKeyHash(key);
    const fingerprint = requestFingerprint(event);
    const claim = await claimIdempotencyKey({
      scope,
      keyHash,
      fingerprint,
      now: event.now ?? new Date(),
      keepSeconds: IDEMPOTENCY_KEEP_SECONDS,
      leaseSeconds: LEASE_SECONDS,
    });
    if (claim.kind === 'claimed') {
      claims.set(event, { scope, keyHash });
      return;
    }
    if (claim.fingerprint !== fingerprint) {
      throw new ApiError('invalid_request', {
        status: 422,
        message: 'This Idempotency-Key was already used with another request.',
        hint: 'Use a new Idempotency-Key for a different body, operation or X-Profile-Id; a key is kept for 24 hours.',
      });
    }
    if (claim.kind === 'in_progress') {
      throw new ApiError('invalid_state', {
        message: 'A request with this Idempotency-Key is still being processed.',
        hint: 'Wait a moment and retry with the same Idempotency-Key to get its response.',
      });
    }
    event.idempotentReplay = {
      ...claim.response,
      headers: { ...claim.response.headers, 'idempotent-replayed': 'true' },
    };
  },
  after: async ({ event, response }) => {
    const claimed = claims.get(event);
    if (!claimed || !response) return;
    const status = response.statusCode ?? 200;
    if (status >= 200 && status < 300) {
      const headers: Record<string, string> = {};
      for (const name of ['content-type', 'cache-control']) {
        const value = response.headers?.[name];
        if (value !== undefined) headers[name] = String(value);
      }
      // The resource exists now: a failure to remember the response must not turn it into an
      // error. The claim then frees itself after its lease, and a later retry runs again.
      await completeIdempotencyKey(claimed.scope, claimed.keyHash, {
        statusCode: status,
        body: response.body ?? '',
        headers,
      }).catch((error: unknown) => logger.error('could not store the idempotent response', { error }));
    } else {
      await releaseIdempotencyKey(claimed.scope, claimed.keyHash);
    }
  },
  onError: async ({ event }) => {
    const claimed = claims.get(event);
    if (!claimed) return;
    // The request's own error is what the caller must see; a key left claimed frees itself after the lease.
    await releaseIdempotencyKey(claimed.scope, claimed.keyHash).catch((error: unknown) =>
      logger.warn('could not release idempotency key', { error }),
    );
  },
});
