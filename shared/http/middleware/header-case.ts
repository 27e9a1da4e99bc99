import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

/**
 * Header names in lower case, so the middlewares read `authorization`, `content-type` … however a
 * caller spelt them (a name sent twice in different cases keeps the value listed last). API
 * Gateway's HTTP API already sends them so: then the event's headers are used as they are, with
 * no copy.
 */
export const lowerCaseHeaders = (): MiddlewareObj<APIGatewayProxyEventV2> => ({
  before: ({ event }) => {
    const { headers } = event;
    if (!headers) return;
    for (const name in headers) {
      if (name !== name.toLowerCase()) {
        event.headers = lowerCased(headers);
        return;
      }
    }
  },
});

function lowerCased(headers: Record<string, string | undefined>): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const name of Object.keys(headers)) out[name.toLowerCase()] = headers[name];
  return out;
}
