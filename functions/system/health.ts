import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { successResponse } from '../../shared/http/envelope.js';
import { errorEnvelope } from '../../shared/http/middleware/error-envelope.js';

/**
 * Liveness: the process answers. Deliberately not `httpHandler`: a probe reads no credential and no
 * table, so this Lambda carries neither the DynamoDB client nor zod (a few KiB, a fast cold start).
 */
export const handler = middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>(async () => successResponse(200, { status: 'ok' })).use(errorEnvelope());
