import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { ApiError } from '../../shared/http/contract/errors.js';
import { errorEnvelope } from '../../shared/http/middleware/error-envelope.js';
import { rateLimit } from '../../shared/http/middleware/rate-limit.js';
import { requestId } from '../../shared/http/middleware/request-id.js';
import { routeMatcher } from '../../shared/http/route-match.js';
import { routeList } from '../../shared/http/contract/route-table.js';

const match = routeMatcher(routeList);

/** API Gateway's `$default` route (and the local server's fallback): 404 or 405 in the envelope. */
export const handler = middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>(
  async (event: APIGatewayProxyEventV2) => {
    const result = match(event.requestContext.http.method, event.rawPath);
    if (result.kind === 'method_not_allowed') {
      throw new ApiError('method_not_allowed', {
        hint: `This path accepts: ${result.allowed.join(', ')}.`,
        headers: { allow: result.allowed.join(', ') },
      });
    }
    throw new ApiError('route_not_found', {
      hint: 'Paths start with /v1; the OpenAPI document is at GET /v1/openapi.json.',
    });
  },
)
  // First, so X-Request-Id lands on the 404/405 too; then counted like any request (so the
  // RateLimit headers do as well).
  .use(requestId())
  .use(rateLimit({ deferWithoutCredential: true }).count)
  .use(errorEnvelope())
  .use(httpHeaderNormalizer());
