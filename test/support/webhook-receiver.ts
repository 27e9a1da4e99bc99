import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedRequest {
  headers: IncomingHttpHeaders;
  body: string;
  path: string;
  /** Whether `standardwebhooks` verified the signature with one of the receiver's secrets. */
  verified: boolean;
  /** Which secrets (by index in `secrets`) verify it on their own. */
  verifiedBy: number[];
}

/** What the receiver answers the n-th request (1-based): a status, or never answer at all. */
export type Responder = (
  n: number,
  request: ReceivedRequest,
) => number | 'hang' | { status: number; headers?: Record<string, string>; body?: string };

export interface Receiver {
  url: string;
  received: ReceivedRequest[];
  /** Secrets the signatures are checked against (set after the endpoint is created). */
  secrets: string[];
  respond: Responder;
  /** Requests answered with 'hang' that are still open. */
  hanging(): number;
  /** Drops the connections of the hanging requests (the sender sees a network error). */
  release(): void;
  close(): Promise<void>;
}

/** A real webhook receiver on 127.0.0.1 that verifies every request with the standardwebhooks package. */
export async function startReceiver(respond: Responder = () => 200): Promise<Receiver> {
  const hanging: ServerResponse[] = [];
  const open = new Set<ServerResponse>();
  const receiver: Receiver = {
    url: '',
    received: [],
    secrets: [],
    respond,
    hanging: () => open.size,
    release: () => {
      for (const res of hanging.splice(0)) res.destroy();
    },
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = {
        'webhook-id': String(req.headers['webhook-id']),
        'webhook-timestamp': String(req.headers['webhook-timestamp']),
        'webhook-signature': String(req.headers['webhook-signature']),
      };
      const verifiedBy = receiver.secrets.flatMap((secret, i) => {
        try {
          new Webhook(secret).verify(body, headers);
          return [i];
        } catch {
          return [];
        }
      });
      const request: ReceivedRequest = {
        headers: req.headers,
        body,
        path: req.url ?? '/',
        verified: verifiedBy.length > 0,
        verifiedBy,
      };
      receiver.received.push(request);
      const answer = receiver.respond(receiver.received.length, request);
      if (answer === 'hang') {
        hanging.push(res);
        open.add(res);
        res.once('close', () => open.delete(res));
        return;
      }
      const {
        status,
        headers: extra,
        body: text,
      } = typeof answer === 'number' ? { status: answer, headers: {}, body: 'ok' } : answer;
      res.writeHead(status, extra);
      res.end(text ?? '');
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return receiver;
}

/**
 * Receivers a test file starts as it goes, all closed once after its tests:
 * `const receivers = receiverPool(); afterAll(receivers.closeAll);`.
 */
export function receiverPool() {
  const started: Receiver[] = [];
  return {
    start: async (respond?: Responder): Promise<Receiver> => {
      const receiver = await startReceiver(respond);
      started.push(receiver);
      return receiver;
    },
    closeAll: async (): Promise<void> => {
      await Promise.all(started.map((r) => r.close()));
    },
  };
}
