/**
 * A ResponseSink over a Lambda response stream (`awslambda.streamifyResponse`): the status and
 * headers go first as the stream's prelude (`HttpResponseStream.from`), then the body as written.
 */
import type { Writable } from 'node:stream';
import type { ResponseSink } from '../response-sink.js';

/** The Lambda Node.js runtime's global for response streaming (absent outside Lambda). */
export interface LambdaStreaming {
  streamifyResponse<E, C>(
    handler: (event: E, responseStream: Writable, context: C) => Promise<void>,
  ): (event: E, context: C) => Promise<void>;
  HttpResponseStream: {
    from(stream: Writable, prelude: { statusCode: number; headers: Record<string, string> }): Writable;
  };
}

export function lambdaResponseSink(runtime: LambdaStreaming, responseStream: Writable): ResponseSink {
  const gone = new AbortController();
  responseStream.on('close', () => gone.abort());
  responseStream.on('error', () => gone.abort());
  let body: Writable = responseStream;
  return {
    open(status, headers) {
      body = runtime.HttpResponseStream.from(responseStream, { statusCode: status, headers });
    },
    write: (text) => void body.write(text),
    end: () => body.end(),
    closed: gone.signal,
  };
}
