/**
 * The Lambda behind GET /console… and /docs… in AWS: serves the files that the stack built into
 * the function's layer at synth time (infra/console.ts). API Gateway carries bodies as base64.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { readAssets, serveAsset, type Assets } from './assets.js';

let loaded: Promise<Assets> | undefined;

export async function handler(event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> {
  loaded ??= readAssets(process.env.CONSOLE_ASSETS_DIR ?? '/opt/console-assets');
  const response = serveAsset(
    await loaded,
    event.requestContext.http.method,
    event.rawPath,
    event.headers['accept-encoding'] ?? '',
  );
  return {
    statusCode: response.status,
    headers: response.headers,
    body: response.body.toString('base64'),
    isBase64Encoded: true,
  };
}
