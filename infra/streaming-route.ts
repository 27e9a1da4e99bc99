import { Duration } from 'aws-cdk-lib';
import { FunctionUrlAuthType, HttpMethod, InvokeMode } from 'aws-cdk-lib/aws-lambda';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';

/** A Lambda invocation lasts at most 15 minutes: so does one stream connection. */
export const STREAM_CONNECTION = Duration.minutes(15);

/**
 * A streaming route (route.streaming: GET /v1/stream) in AWS. API Gateway's HTTP APIs cannot
 * stream a response (they buffer it and end it at 30 s), so the route's function is also reached
 * through a function URL in RESPONSE_STREAM mode (`awslambda.streamifyResponse`). The URL
 * authenticates nothing itself (AuthType NONE): the function runs the route's own credential,
 * scope and acting-profile checks, or spends a stream ticket. (Not yet an output of the stack: a
 * route stack hands nothing back up to the parent; see docs/decisions.md "Live".)
 */
export function streamingUrl(fn: NodejsFunction): void {
  fn.addFunctionUrl({
    authType: FunctionUrlAuthType.NONE,
    invokeMode: InvokeMode.RESPONSE_STREAM,
    cors: {
      allowedOrigins: ['*'],
      allowedMethods: [HttpMethod.GET],
      allowedHeaders: ['authorization', 'x-profile-id', 'last-event-id'],
    },
  });
}
