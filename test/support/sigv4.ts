/**
 * Checks a received request's SigV4 signature from scratch (the algorithm as AWS documents it,
 * node:crypto only), so a wrong header, path or body hash fails here and not first on AWS. The
 * signing adapters' tests sign with the access key AKIDTEST and the secret `test-secret`.
 */
import { createHash, createHmac } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { expect } from 'vitest';

export const TEST_CREDENTIALS = () => Promise.resolve({ accessKeyId: 'AKIDTEST', secretAccessKey: 'test-secret' });

export interface SignedRequestSeen {
  method: string;
  /** The path and query as received. */
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export function expectSigV4(request: SignedRequestSeen, service: string): void {
  const match = new RegExp(
    `^AWS4-HMAC-SHA256 Credential=AKIDTEST/(\\d{8})/([a-z0-9-]+)/${service}/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$`,
  ).exec(String(request.headers.authorization));
  expect(match, String(request.headers.authorization)).not.toBeNull();
  const [, day, region, signedHeaders, signature] = match!;
  const names = signedHeaders!.split(';');
  expect(names).toContain('host');
  expect(names).toContain('x-amz-date');
  const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
  const [pathname, search = ''] = request.path.split('?');
  const canonical = [
    request.method,
    pathname,
    search.split('&').filter(Boolean).sort().join('&'),
    ...names.map((name) => `${name}:${String(request.headers[name]).trim()}`),
    '',
    signedHeaders,
    sha256(request.body),
  ].join('\n');
  const date = String(request.headers['x-amz-date']);
  const scope = `${day}/${region}/${service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', date, scope, sha256(canonical)].join('\n');
  const hmac = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text).digest();
  const key = [service, 'aws4_request'].reduce(hmac, hmac(hmac('AWS4test-secret', day!), region!));
  expect(createHmac('sha256', key).update(toSign).digest('hex')).toBe(signature);
}
