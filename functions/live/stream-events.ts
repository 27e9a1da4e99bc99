/**
 * GET /v1/stream: a response-streaming function behind the streaming REST API. The caller is established as for any route (the
 * route's whole middleware stack: credential, `events:read`, acting profile, rate limit; its
 * errors answer as the usual JSON envelope), or by a stream ticket, spent here; then the stream
 * runs (shared/live/stream.ts) until the client goes or the connection's 15 minutes are nearly up.
 */
import type {
  APIGatewayProxyEvent,
  APIGatewayProxyEventV2,
  APIGatewayProxyStructuredResultV2,
  Context,
} from 'aws-lambda';
import type { Writable } from 'node:stream';
import { routes } from '../../shared/http/contract/routes/live.js';
import { StreamQuery } from '../../shared/http/contract/schemas/live.js';
import { ApiError, AppError } from '../../shared/http/contract/errors.js';
import { errorResponse } from '../../shared/http/envelope.js';
import { httpHandler, RawAnswer } from '../../shared/http/handler.js';
import { parseInput } from '../../shared/http/validation.js';
import { checkedCursor } from '../../shared/live/read.js';
import { streamEvents, type StreamRequest } from '../../shared/live/stream.js';
import { lambdaResponseSink, type LambdaStreaming } from '../../shared/ports/aws/lambda-response-sink.js';
import { pauseEventWake } from '../../shared/ports/aws/pause-event-wake.js';
import { httpApiEventOf } from '../../shared/ports/aws/rest-proxy-event.js';
import type { EventWake } from '../../shared/ports/event-wake.js';
import type { ResponseSink } from '../../shared/ports/response-sink.js';
import { spendStreamTicket } from '../../shared/store/stream-tickets.js';

/** A Lambda invocation (so a connection) lasts at most 15 minutes: the stream ends a little before. */
const CONNECTION_MS = 15 * 60_000;
const END_MARGIN_MS = 10_000;

const route = routes.streamEvents;

/** The streams the route's stack let through, by request id, until the stream takes its request. */
const opened = new Map<string, StreamRequest>();

const lastEventId = (event: APIGatewayProxyEventV2) =>
  Object.entries(event.headers ?? {}).find(([name]) => name.toLowerCase() === 'last-event-id')?.[1];

/** The route's stack, ending in a handler that hands the checked request over instead of answering. */
const opening = httpHandler(route, async ({ query, auth, event }) => {
  const profileId = auth.actingProfile.id;
  const after = lastEventId(event) ?? query.after;
  opened.set(event.requestContext.requestId, {
    profileId,
    after: after === undefined ? undefined : await checkedCursor(profileId, after),
    types: query.types,
  });
  return new RawAnswer({ statusCode: 200 });
});

const badTicket = () =>
  new ApiError('unauthorized', {
    message: 'The stream ticket is unknown, used or expired.',
    hint: 'POST /v1/stream-tickets for a new ticket (one stream each, within 60 seconds).',
  });

/** A ticket's stream: the ticket spent, the query checked as the route checks it. */
async function ticketRequest(event: APIGatewayProxyEventV2, ticket: string): Promise<StreamRequest> {
  const query = parseInput('query', StreamQuery, event.queryStringParameters ?? {});
  const profileId = await spendStreamTicket(ticket, new Date());
  if (!profileId) throw badTicket();
  const after = lastEventId(event) ?? query.after;
  return {
    profileId,
    after: after === undefined ? undefined : await checkedCursor(profileId, after),
    types: query.types,
  };
}

function answer(sink: ResponseSink, response: APIGatewayProxyStructuredResultV2): void {
  sink.open(response.statusCode ?? 500, (response.headers ?? {}) as Record<string, string>);
  if (response.body) sink.write(response.body);
  sink.end();
}

/** The stream with these ports (the local runtime's wake-ups; in Lambda, a look each second). */
export const streamHandler =
  (wake: EventWake = pauseEventWake) =>
  async (event: APIGatewayProxyEventV2, sink: ResponseSink, context: Context): Promise<void> => {
    let request: StreamRequest | undefined;
    const ticket = event.queryStringParameters?.ticket;
    if (ticket !== undefined) {
      try {
        request = await ticketRequest(event, ticket);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        return answer(sink, errorResponse(error));
      }
    } else {
      const response = await opening(event, context);
      request = opened.get(event.requestContext.requestId);
      opened.delete(event.requestContext.requestId);
      if (!request) return answer(sink, response);
    }
    const forMs = Math.min(CONNECTION_MS, context.getRemainingTimeInMillis()) - END_MARGIN_MS;
    await streamEvents(request, sink, wake, forMs);
  };

declare const awslambda: LambdaStreaming | undefined;

/**
 * The deployed function: the Lambda runtime's response streaming, invoked by the streaming REST
 * API (infra/streaming-route.ts) with its proxy event (payload 1.0), read as the HTTP API's. The
 * runtime's global exists only there (Powertools puts an empty `awslambda` object elsewhere, so
 * the function itself is looked for).
 */
const streaming =
  typeof awslambda !== 'undefined' && typeof awslambda?.streamifyResponse === 'function' ? awslambda : undefined;
const run = streamHandler();

export const handler = Object.assign(
  streaming
    ? streaming.streamifyResponse((event: APIGatewayProxyEvent, responseStream: Writable, context: Context) =>
        run(httpApiEventOf(event), lambdaResponseSink(streaming, responseStream), context),
      )
    : () => Promise.reject(new Error('GET /v1/stream runs in Lambda with response streaming, or as streamHandler')),
  { route },
);
