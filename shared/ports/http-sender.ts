/** HttpSender port: one webhook POST, with the attempt timeout and the outbound URL policy. */
import type { UrlPolicy } from '../config.js';

export interface HttpAttempt {
  statusCode: number | null;
  error: string | null;
  responseBody: string | null;
}

export interface HttpSender {
  post(
    url: string,
    headers: Record<string, string>,
    body: string,
    options: { timeoutMs: number; policy: UrlPolicy },
  ): Promise<HttpAttempt>;
}
