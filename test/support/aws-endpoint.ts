/**
 * A stand-in for an AWS endpoint reached over plain HTTP (an OpenSearch domain, the AppSync Events
 * publish endpoint): a real HTTP server on 127.0.0.1 that records every request as received and
 * answers what the test set, by method and path (200 `{}` otherwise). The adapters' tests assert
 * the exact requests (and their SigV4 signatures, sigv4.ts) against it.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SignedRequestSeen } from './sigv4.js';

export interface Answer {
  status: number;
  body?: unknown;
}

export interface AwsEndpoint {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** The requests received since the last reset, in order. */
  seen: SignedRequestSeen[];
  /** The answer to each `METHOD /path`; a function answers the n-th (1-based) such request. */
  answers: Record<string, Answer | ((n: number, request: SignedRequestSeen) => Answer)>;
  reset(): void;
  close(): Promise<void>;
}

export async function startAwsEndpoint(): Promise<AwsEndpoint> {
  const counts = new Map<string, number>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = {
        method: req.method!,
        path: req.url!,
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      };
      endpoint.seen.push(request);
      const key = `${request.method} ${request.path}`;
      const n = (counts.get(key) ?? 0) + 1;
      counts.set(key, n);
      const answer = endpoint.answers[key];
      const { status, body } = (typeof answer === 'function' ? answer(n, request) : answer) ?? { status: 200 };
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(request.method === 'HEAD' ? undefined : JSON.stringify(body ?? {}));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint: AwsEndpoint = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen: [],
    answers: {},
    reset() {
      endpoint.seen = [];
      endpoint.answers = {};
      counts.clear();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return endpoint;
}
