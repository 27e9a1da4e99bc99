/**
 * Where a streaming route writes its response as it goes: a Lambda response stream in AWS
 * (aws/lambda-response-sink.ts), the HTTP response itself locally (infra/local/http-server.ts).
 */
export interface ResponseSink {
  /** Sends the status and headers; nothing is sent before. */
  open(status: number, headers: Record<string, string>): void;
  write(text: string): void;
  end(): void;
  /** Aborts when the client has gone. */
  readonly closed: AbortSignal;
}
