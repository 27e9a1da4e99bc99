/**
 * Stands in for `@smithy/core/event-streams` in the Lambda bundles (esbuild alias in
 * infra/bundling.ts). The SDK's protocols import it only to send or read an event-stream member
 * (Bedrock, Transcribe, S3 Select and the like); no DynamoDB, DynamoDB Streams, SQS, Scheduler or
 * S3 operation used here has one, but esbuild bundles the dynamic import anyway: about 14 KiB in
 * every function.
 * Not used locally: the local runtime loads the real module.
 */
const notBundled = (): never => {
  throw new Error('AWS event streams are not bundled into this Lambda (see infra/bundling.ts)');
};

export class EventStreamSerde {
  constructor() {
    notBundled();
  }
}

export const eventStreamSerdeProvider = notBundled;

/**
 * The S3 client's config step names its event-stream marshaller when the client is built; here
 * the marshaller fails only if something ever reads it (an event-stream operation: S3 Select).
 */
export const resolveEventStreamSerdeConfig = <T extends object>(input: T): T =>
  Object.defineProperty(input, 'eventStreamMarshaller', { get: notBundled, configurable: true });
