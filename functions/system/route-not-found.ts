import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { ApiError } from '../../shared/http/contract/errors.js';
import { errorResponse } from '../../shared/http/envelope.js';
import type { HttpLambda } from '../../shared/http/handler.js';
import { routeMatcher } from '../../shared/http/route-match.js';
import { routePaths } from './route-paths.js';

const match = routeMatcher(routePaths);

/**
 * API Gateway's `$default` route (and the local server's fallback): 404 or 405 in the envelope.
 * It knows the paths, not the route table (route-paths.ts), and is not rate-limited (README,
 * "Decisions"): it does no work a limit would protect.
 */
export const handler: HttpLambda = async (event: APIGatewayProxyEventV2) => {
  const result = match(event.requestContext.http.method, event.rawPath);
  if (result.kind === 'method_not_allowed') {
    return errorResponse(
      new ApiError('method_not_allowed', {
        hint: `This path accepts: ${result.allowed.join(', ')}.`,
        headers: { allow: result.allowed.join(', ') },
      }),
    );
  }
  return errorResponse(new ApiError('route_not_found', { hint: 'Paths start with /v1; the OpenAPI document is at GET /v1/openapi.json.' }));
};
