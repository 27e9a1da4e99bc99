/**
 * GET /v1/stream's deployed function as API Gateway's streaming REST API invokes it: a proxy event
 * of payload 1.0 (headers in their sent case, multi-value maps), answered through the Lambda
 * runtime's response streaming (`awslambda.streamifyResponse`, `HttpResponseStream.from` with the
 * status and headers as the prelude). The runtime's global is played here; the table is real.
 */
import { Writable } from 'node:stream';
import type { Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import type { LambdaStreaming } from '../../shared/ports/aws/lambda-response-sink.js';
import { call } from '../support/api.js';
import { sendMessage } from '../support/live.js';
import { restStreamEvent } from '../support/rest-events.js';
import { actor, ok, type Actor } from '../support/social.js';

interface Answer {
  prelude?: { statusCode: number; headers: Record<string, string> };
  body: string;
}

/** The Lambda runtime's streaming global, recording the prelude; each invocation gets a fresh answer. */
const answers: Answer[] = [];
const runtime: LambdaStreaming = {
  streamifyResponse: (handler) => (event, context) => {
    const answer: Answer = { body: '' };
    answers.push(answer);
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        answer.body += chunk.toString();
        done();
      },
    });
    return handler(event, stream, context);
  },
  HttpResponseStream: {
    from(stream, prelude) {
      answers.at(-1)!.prelude = prelude;
      return stream;
    },
  },
};
(globalThis as unknown as { awslambda?: LambdaStreaming }).awslambda = runtime;
const { handler } = await import('../../functions/live/stream-events.js');
const invoke = handler as unknown as (event: unknown, context: Context) => Promise<void>;

/** An invocation with this much time left: the stream ends 10 s before its end. */
const contextWith = (remainingMs: number) =>
  ({ awsRequestId: 'test', getRemainingTimeInMillis: () => remainingMs }) as unknown as Context;

const headersOf = (a: Actor, extra: Record<string, string> = {}) => ({
  Accept: 'text/event-stream',
  Authorization: `Bearer ${a.key}`,
  'X-Profile-Id': a.profile.id,
  ...extra,
});

describe('the streaming function behind the REST API', () => {
  it('checks the caller from a payload 1.0 event, resumes after its Last-Event-ID header and streams with a prelude', async () => {
    const [alice, bob] = await Promise.all([actor(), actor()]);
    await sendMessage(bob, alice, 'one');
    await sendMessage(bob, alice, 'two');
    let page = ok(
      await call('GET', '/v1/events?types=message.created&wait=10', { token: alice.key, profileId: alice.profile.id }),
    );
    const seen = [...page.items];
    while (seen.length < 2) {
      page = ok(
        await call('GET', `/v1/events?types=message.created&wait=10&after=${page.next_cursor}`, {
          token: alice.key,
          profileId: alice.profile.id,
        }),
      );
      seen.push(...page.items);
    }
    const headers = headersOf(alice, { 'Last-Event-ID': seen[0].id });
    const event = restStreamEvent({
      headers,
      multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]])),
      queryStringParameters: { types: 'message.created' },
      multiValueQueryStringParameters: { types: ['message.created'] },
      requestContext: { ...restStreamEvent().requestContext, requestId: crypto.randomUUID() },
    });
    await invoke(event, contextWith(11_000));
    const answer = answers.at(-1)!;
    expect(answer.prelude).toMatchObject({
      statusCode: 200,
      headers: { 'content-type': 'text/event-stream; charset=utf-8' },
    });
    expect(answer.body.startsWith('retry: 1000\n\n')).toBe(true);
    // Only what came after the Last-Event-ID: the second message, once.
    expect(answer.body).not.toContain(`id: ${seen[0].id}\n`);
    expect(answer.body.split(`id: ${seen[1].id}\n`)).toHaveLength(2);
    expect(answer.body).toContain('"body":"two"');
  }, 30_000);

  it('answers a caller without a credential with the JSON envelope (401) as the prelude and body', async () => {
    await invoke(
      restStreamEvent({
        headers: { Accept: 'text/event-stream' },
        multiValueHeaders: { Accept: ['text/event-stream'] },
        requestContext: { ...restStreamEvent().requestContext, requestId: crypto.randomUUID() },
      }),
      contextWith(11_000),
    );
    const answer = answers.at(-1)!;
    expect(answer.prelude?.statusCode).toBe(401);
    expect(JSON.parse(answer.body)).toMatchObject({ ok: false, error_code: 'unauthorized' });
  });
});
