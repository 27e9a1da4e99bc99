/**
 * The streaming route's function reads a REST API proxy event (payload 1.0) as the HTTP API's
 * (2.0): the shape API Gateway's REST API sends with response streaming (a real event's fields).
 */
import { describe, expect, it } from 'vitest';
import { httpApiEventOf } from '../../shared/ports/aws/rest-proxy-event.js';
import { restStreamEvent } from '../support/rest-events.js';

describe('a REST API proxy event read as the HTTP API reads it', () => {
  it('gives headers in lower case, the query, the method and path, the request id and the caller', () => {
    const event = httpApiEventOf(restStreamEvent());
    expect(event).toMatchObject({
      version: '2.0',
      routeKey: 'GET /v1/stream',
      rawPath: '/v1/stream',
      rawQueryString: 'types=message.created&after=0000491234000001-1a2b3c4d',
      queryStringParameters: { types: 'message.created', after: '0000491234000001-1a2b3c4d' },
      isBase64Encoded: false,
      requestContext: {
        requestId: 'c6af9ac6-7b61-11e6-9a41-93e8deadbeef',
        domainName: 'abc123.execute-api.eu-west-1.amazonaws.com',
        stage: 'live',
        http: { method: 'GET', path: '/v1/stream', sourceIp: '203.0.113.7', userAgent: 'curl/8.5.0' },
      },
    });
    expect(event.headers).toEqual({
      accept: 'text/event-stream',
      authorization: 'Bearer sk_live_example',
      host: 'abc123.execute-api.eu-west-1.amazonaws.com',
      'last-event-id': '0000491234000001-1a2b3c4d',
      'x-profile-id': '6c1f0c7e-1b8e-4c47-9a3e-2f7e1c9d0a11',
      'x-forwarded-for': '203.0.113.7',
    });
    expect(event.body).toBeUndefined();
    expect(event.cookies).toBeUndefined();
  });

  it('joins repeated values with commas and leaves out what is absent', () => {
    const event = httpApiEventOf(
      restStreamEvent({
        headers: { Cookie: 'a=1; b=2' },
        multiValueHeaders: { Cookie: ['a=1; b=2'], 'X-Forwarded-For': ['203.0.113.7', '10.0.0.1'] },
        queryStringParameters: { types: 'feed.post' },
        multiValueQueryStringParameters: { types: ['message.created', 'feed.post'] },
      }),
    );
    expect(event.headers).toEqual({ cookie: 'a=1; b=2', 'x-forwarded-for': '203.0.113.7,10.0.0.1' });
    expect(event.cookies).toEqual(['a=1', 'b=2']);
    expect(event.queryStringParameters).toEqual({ types: 'message.created,feed.post' });
    expect(event.rawQueryString).toBe('types=message.created&types=feed.post');

    const bare = httpApiEventOf(
      restStreamEvent({
        headers: {},
        multiValueHeaders: {},
        queryStringParameters: null,
        multiValueQueryStringParameters: null,
      }),
    );
    expect(bare.headers).toEqual({});
    expect(bare.queryStringParameters).toBeUndefined();
    expect(bare.rawQueryString).toBe('');
  });
});
