/**
 * The HttpSender adapter (undici), in Lambda and locally alike. It connects to the address the
 * URL policy checked (a pinned `lookup`, no second DNS resolution), follows no redirects, enforces
 * the attempt timeout and keeps at most RESPONSE_BODY_LIMIT bytes of the response body.
 *
 * The timeout covers the whole attempt, DNS resolution included: a resolver that never answers
 * costs the attempt its timeout, not the sender its slot.
 */
import type { LookupFunction } from 'node:net';
import { Client, request } from './undici-parts.js';
import { RESPONSE_BODY_LIMIT } from '../../domain/webhooks.js';
import type { UrlPolicy } from '../../config.js';
import type { HttpAttempt, HttpSender } from '../http-sender.js';
import { resolveTarget, type ResolvedTarget, type Resolver } from './url-policy.js';

/** A DNS lookup that always answers the already-checked address. */
export function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return (_hostname, options, callback) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

async function readLimited(body: AsyncIterable<Buffer> & { destroy(): unknown }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= RESPONSE_BODY_LIMIT) break;
  }
  body.destroy();
  return Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT).toString('utf8');
}

/** Resolves like `resolveTarget`, or undefined once `signal` aborts (the lookup itself cannot be cancelled). */
function resolveWithin(
  url: string,
  policy: UrlPolicy,
  signal: AbortSignal,
  resolver?: Resolver,
): Promise<Awaited<ReturnType<typeof resolveTarget>> | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise((done, fail) => {
    const onAbort = () => done(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    resolveTarget(url, policy, resolver).then(
      (target) => {
        signal.removeEventListener('abort', onAbort);
        done(target);
      },
      (error: Error) => {
        signal.removeEventListener('abort', onAbort);
        fail(error);
      },
    );
  });
}

/** The sender, with the resolver injectable (tests use one that never answers). */
export function createUndiciSender(resolver?: Resolver): HttpSender {
  return {
    async post(url, headers, body, { timeoutMs, policy }) {
      const deadline = Date.now() + timeoutMs;
      const signal = AbortSignal.timeout(timeoutMs);
      const target = await resolveWithin(url, policy, signal, resolver);
      if (!target)
        return {
          statusCode: null,
          error: `timeout after ${timeoutMs} ms (resolving the receiver host)`,
          responseBody: null,
        };
      if ('reason' in target) return { statusCode: null, error: target.reason, responseBody: null };
      return postTo(target, headers, body, timeoutMs, Math.max(1, deadline - Date.now()), signal);
    },
  };
}

async function postTo(
  target: ResolvedTarget,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  remainingMs: number,
  signal: AbortSignal,
): Promise<HttpAttempt> {
  // One connection for one attempt, to the checked address only.
  const client = new Client(target.url.origin, {
    connect: { lookup: pinnedLookup(target.address, target.family), timeout: remainingMs },
    keepAliveTimeout: 1,
  });
  try {
    const path = `${target.url.pathname}${target.url.search}`;
    const response = await request(client, {
      method: 'POST',
      path,
      headers,
      body,
      signal,
      headersTimeout: remainingMs,
      bodyTimeout: remainingMs,
    });
    let responseBody: string | null = null;
    try {
      responseBody = await readLimited(response.body as never);
    } catch {
      responseBody = null;
    }
    return { statusCode: response.statusCode, error: null, responseBody };
  } catch (error) {
    const timedOut =
      signal.aborted ||
      (error as { code?: string }).code === 'UND_ERR_HEADERS_TIMEOUT' ||
      (error as { code?: string }).code === 'UND_ERR_CONNECT_TIMEOUT';
    return {
      statusCode: null,
      error: timedOut
        ? `timeout after ${timeoutMs} ms`
        : `network error: ${(error as { code?: string }).code ?? 'connection failed'}`,
      responseBody: null,
    };
  } finally {
    client.destroy().catch(() => undefined);
  }
}

export const undiciSender: HttpSender = createUndiciSender();
