import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { AuthContext } from '../../auth/principal.js';

/** What API Gateway invokes: the raw v2 event in, a structured result out. */
export type HttpLambda = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

/**
 * The event as the middlewares leave it for the handler: the caller and the request's clock, and
 * the stored first response when the request repeats an Idempotency-Key.
 */
export type ApiEvent = APIGatewayProxyEventV2 & { auth: AuthContext; now: Date; idempotentReplay?: APIGatewayProxyStructuredResultV2 };

export type ApiMiddleware = MiddlewareObj<ApiEvent, APIGatewayProxyStructuredResultV2>;
