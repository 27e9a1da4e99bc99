import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';

/**
 * A Lambda context for handlers invoked in-process by the local runtime. A class: the local
 * server makes one per request, and its methods are shared instead of made anew each time.
 */
class LocalContext implements Context {
  readonly callbackWaitsForEmptyEventLoop = false;
  readonly functionVersion = '$LATEST';
  readonly memoryLimitInMB = '512';
  readonly logStreamName = 'local';
  readonly awsRequestId = randomUUID();
  private readonly deadline: number;

  constructor(
    readonly functionName: string,
    timeoutMs: number,
  ) {
    this.deadline = Date.now() + timeoutMs;
  }

  get invokedFunctionArn(): string {
    return `arn:aws:lambda:local:000000000000:function:${this.functionName}`;
  }

  get logGroupName(): string {
    return `/aws/lambda/${this.functionName}`;
  }

  getRemainingTimeInMillis(): number {
    return Math.max(0, this.deadline - Date.now());
  }

  done(): void {}
  fail(): void {}
  succeed(): void {}
}

export function localContext(functionName: string, timeoutMs = 29_000): Context {
  return new LocalContext(functionName, timeoutMs);
}
