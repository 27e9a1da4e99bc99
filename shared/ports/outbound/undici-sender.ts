/**
 * The HttpSender adapter (undici), in Lambda and locally alike. It connects to the address the
 * URL policy checked (a pinned `lookup`, no second DNS resolution), follows no redirects, enforces
 * the attempt timeout and keeps at most RESPONSE_BODY_LIMIT bytes of the response body.
 */
import type { LookupFunction } from 'node:net';
import { Agent, request } from 'undici';
import { RESPONSE_BODY_LIMIT } from '../../domain/webhooks.js';
import type { HttpSender } from '../http-sender.js';
import { resolveTarget } from './url-policy.js';

/** A DNS lookup that always answers the already-checked address. */
function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as unknown as LookupFunction;
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

export const undiciSender: HttpSender = {
  async post(url, headers, body, { timeoutMs, policy }) {
    const target = await resolveTarget(url, policy);
    if ('reason' in target) return { statusCode: null, error: target.reason, responseBody: null };
    const agent = new Agent({ connect: { lookup: pinnedLookup(target.address, target.family), timeout: timeoutMs }, keepAliveTimeout: 1 });
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const response = await request(target.url, { method: 'POST', headers, body, dispatcher: agent, signal, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
      let responseBody: string | null = null;
      try {
        responseBody = await readLimited(response.body as never);
      } catch {
        responseBody = null;
      }
      return { statusCode: response.statusCode, error: null, responseBody };
    } catch (error) {
      const timedOut = signal.aborted || (error as { code?: string }).code === 'UND_ERR_HEADERS_TIMEOUT' || (error as { code?: string }).code === 'UND_ERR_CONNECT_TIMEOUT';
      return { statusCode: null, error: timedOut ? `timeout after ${timeoutMs} ms` : `network error: ${(error as { code?: string }).code ?? 'connection failed'}`, responseBody: null };
    } finally {
      agent.destroy().catch(() => undefined);
    }
  },
};
