/**
 * The AppSync Events publisher on its exact requests: a local HTTP server on 127.0.0.1 stands in
 * for the API's HTTP endpoint, the adapter signs with SigV4 for `appsync` as in Lambda (static test
 * credentials), and each test asserts the method, path, body and signature of what was sent.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppSyncEventPublisher, EVENTS_PER_REQUEST } from '../../shared/ports/aws/appsync-event-publisher.js';
import { signedFetch } from '../../shared/ports/aws/signed-fetch.js';
import { startAwsEndpoint, type AwsEndpoint } from '../support/aws-endpoint.js';
import { expectSigV4, TEST_CREDENTIALS } from '../support/sigv4.js';

let endpoint: AwsEndpoint;
beforeAll(async () => {
  endpoint = await startAwsEndpoint();
});
afterAll(() => endpoint.close());
beforeEach(() => endpoint.reset());

const publisher = () => new AppSyncEventPublisher(endpoint.url, signedFetch('appsync', TEST_CREDENTIALS));
const events = (count: number) => Array.from({ length: count }, (_, i) => ({ id: `e${i}`, type: 'feed.post' }));
const sent = () => endpoint.seen.map((request) => JSON.parse(request.body) as { channel: string; events: string[] });

describe('the AppSync Events publisher', () => {
  it('posts the events to /event in requests of five, in order, each event as its JSON, signed for appsync', async () => {
    await publisher().publish('/profiles/p1', events(12));
    expect(EVENTS_PER_REQUEST).toBe(5);
    expect(endpoint.seen.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /event', 'POST /event', 'POST /event']);
    expect(sent().map((body) => body.channel)).toEqual(['/profiles/p1', '/profiles/p1', '/profiles/p1']);
    expect(sent().map((body) => body.events.length)).toEqual([5, 5, 2]);
    const published = sent().flatMap((body) => body.events.map((text) => JSON.parse(text) as unknown));
    expect(published).toEqual(events(12));
    for (const request of endpoint.seen) {
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['x-amz-date']).toMatch(/^\d{8}T\d{6}Z$/);
      expect(request.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDTEST\//);
      expectSigV4(request, 'appsync');
    }
  });

  it('sends nothing for no events', async () => {
    await publisher().publish('/profiles/p1', []);
    expect(endpoint.seen).toEqual([]);
  });

  it('fails on events AppSync refused in a 200 answer, and sends no later batch', async () => {
    endpoint.answers['POST /event'] = {
      status: 200,
      body: {
        successful: [{ identifier: 'a', index: 0 }],
        failed: [{ identifier: 'b', index: 1, code: 400, message: 'Event too large' }],
      },
    };
    await expect(publisher().publish('/profiles/p1', events(7))).rejects.toThrow(
      /refused 1 of 5 events on \/profiles\/p1, the first: .*Event too large/,
    );
    expect(endpoint.seen).toHaveLength(1);
  });

  it('fails with the answer of a refused request', async () => {
    endpoint.answers['POST /event'] = (n) =>
      n === 2 ? { status: 401, body: { errors: [{ errorType: 'UnauthorizedException' }] } } : { status: 200 };
    await expect(publisher().publish('/profiles/p1', events(11))).rejects.toThrow(
      /publish to \/profiles\/p1 answered 401: .*UnauthorizedException/,
    );
    expect(endpoint.seen).toHaveLength(2);
  });
});
