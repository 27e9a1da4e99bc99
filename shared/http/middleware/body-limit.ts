import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { ApiError } from '../contract/errors.js';

export const MAX_BODY_BYTES = 256 * 1024;

export const bodyLimit = (): MiddlewareObj<APIGatewayProxyEventV2> => ({
  before: ({ event }) => {
    if (!event.body) return;
    const bytes = event.isBase64Encoded
      ? Buffer.byteLength(event.body, 'base64')
      : Buffer.byteLength(event.body, 'utf8');
    if (bytes > MAX_BODY_BYTES) {
      throw new ApiError('payload_too_large', { hint: 'Keep request bodies at or under 256 KiB.' });
    }
  },
});
