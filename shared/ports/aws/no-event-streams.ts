/**
 * Stands in for `@smithy/core/event-streams` in the Lambda bundles (esbuild alias in
 * infra/bundling.ts). The SDK's protocols import it only to send or read an event-stream member
 * (Bedrock, Transcribe, S3 Select and the like); no DynamoDB, DynamoDB Streams, SQS, Scheduler or
 * S3 operation used here has one, but esbuild bundles the dynamic import anyway: about 14 KiB in every function.
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

/**
 * The S3 client resolves its event-stream marshaller when it is built (S3 Select's
 * SelectObjectContent has an event-stream output), so the provider must not throw then: it hands
 * out a marshaller that throws only when an event stream is actually sent or read.
 */
const unbundledMarshaller = { serialize: notBundled, deserialize: notBundled };
export const eventStreamSerdeProvider = () => unbundledMarshaller;

/** What the S3 client's constructor calls (the real module's, with the provider above). */
export const resolveEventStreamSerdeConfig = <T extends { eventStreamSerdeProvider: (config: T) => unknown }>(
  input: T,
): T & { eventStreamMarshaller: unknown } =>
  Object.assign(input, { eventStreamMarshaller: input.eventStreamSerdeProvider(input) });
