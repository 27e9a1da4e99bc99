/**
 * The DocumentFetcher adapter: the webhook sender's safety for a GET. The URL policy resolves and
 * checks the host, the connection goes to the checked address (no second lookup), no redirect is
 * followed, and a body over the limit is refused rather than cut.
 */
import type { DocumentFetcher } from '../document-fetcher.js';
import { Client, request } from './undici-parts.js';
import { pinnedLookup } from './undici-sender.js';
import { resolveTarget } from './url-policy.js';

export const undiciDocumentFetcher: DocumentFetcher = async (url, { policy, maxBytes, timeoutMs }) => {
  const target = await resolveTarget(url, policy);
  if ('reason' in target) return { ok: false, reason: target.reason };
  const client = new Client(target.url.origin, {
    connect: { lookup: pinnedLookup(target.address, target.family), timeout: timeoutMs },
    keepAliveTimeout: 1,
  });
  try {
    const response = await request(client, {
      method: 'GET',
      path: `${target.url.pathname}${target.url.search}`,
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(timeoutMs),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBytes) {
        response.body.destroy();
        return { ok: false, reason: `the document is larger than ${maxBytes} bytes` };
      }
      chunks.push(chunk);
    }
    return { ok: true, status: response.statusCode, body: Buffer.concat(chunks).toString('utf8') };
  } catch (error) {
    return {
      ok: false,
      reason: `the document could not be fetched (${(error as { code?: string }).code ?? 'network error'})`,
    };
  } finally {
    client.destroy().catch(() => undefined);
  }
};
