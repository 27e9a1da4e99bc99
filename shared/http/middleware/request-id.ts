import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { randomUUID } from 'node:crypto';

/** The header every response of the API carries: the id the audit log records the request under. */
export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * This request's id: API Gateway's (the local server makes one per request as API Gateway does).
 * Not Lambda's `awsRequestId`: that one names an invocation, and a request retried by the
 * gateway or replayed into another function would not keep it; the gateway's id is also the one
 * its access logs carry. Never a caller's `X-Request-Id`: an id anyone can choose proves nothing.
 */
export function requestIdOf(event: APIGatewayProxyEventV2, context?: Pick<Context, 'awsRequestId'>): string {
  return event.requestContext?.requestId || context?.awsRequestId || randomUUID();
}

const ids = new WeakMap<object, string>();

/** The request id the `requestId` middleware gave this event. */
export const requestIdFor = (event: APIGatewayProxyEventV2): string => ids.get(event) ?? requestIdOf(event);

function answer(request: {
  event: APIGatewayProxyEventV2;
  response: APIGatewayProxyStructuredResultV2 | null | undefined;
}): void {
  if (request.response)
    request.response.headers = { ...request.response.headers, [REQUEST_ID_HEADER]: requestIdFor(request.event) };
}

/**
 * Names the request and writes `X-Request-Id` on its answer, success or error: first in the
 * stack, so its after/onError run last, once every other middleware has made the response.
 */
export const requestId = (): MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2> => ({
  before: ({ event, context }) => {
    ids.set(event, requestIdOf(event, context));
  },
  after: answer,
  onError: answer,
});
