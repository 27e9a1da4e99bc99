import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { logger } from '../../logger.js';
import { errorResponse } from '../envelope.js';
import { ApiError, AppError } from '../contract/errors.js';

/** middy's http-json-body-parser raises 415 both for a non-JSON content type and for unparsable JSON. */
function fromMiddyError(error: Error & { statusCode?: number }): AppError | undefined {
  if (error.statusCode === 415 && error.message === 'Unsupported Media Type') {
    return new ApiError('unsupported_media_type', {
      hint: 'Send the body as JSON with "Content-Type: application/json".',
    });
  }
  if (error.statusCode === 415) {
    return new ApiError('invalid_json', {
      hint: 'The body could not be parsed as JSON; check quotes, commas and brackets.',
    });
  }
  return undefined;
}

/** The one place where any failure becomes the error envelope. */
export const errorEnvelope = (): MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2> => ({
  onError: async (request) => {
    const error = request.error as Error & { statusCode?: number };
    let apiError = error instanceof AppError ? error : fromMiddyError(error);
    if (!apiError) {
      logger.error('unhandled error', {
        error,
        requestId: request.context?.awsRequestId,
        path: request.event?.rawPath,
      });
      apiError = new ApiError('internal_error', {
        hint: 'Retry later; if it persists, report the time of the request.',
      });
    }
    request.response = errorResponse(apiError);
  },
});
