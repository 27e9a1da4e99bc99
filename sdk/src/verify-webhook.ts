import { Webhook } from 'standardwebhooks';
import type { WebhookEvent } from './schemas.js';

export { WebhookVerificationError } from 'standardwebhooks';

/** A request's headers as a fetch `Request` (Headers), Node's `req.headers` or a plain object carries them. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

const SIGNED_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;

const isHeaders = (headers: WebhookHeaders): headers is Headers => typeof headers.get === 'function';

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (isHeaders(headers)) return headers.get(name) ?? undefined;
  const value = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  // Several signatures (during a secret rotation) are one space-separated list.
  return Array.isArray(value) ? value.join(' ') : value;
}

/**
 * Checks a webhook request the API sent (Standard Webhooks: HMAC-SHA256 of
 * `{webhook-id}.{webhook-timestamp}.{raw body}` with the endpoint's `whsec_` secret) and returns
 * its parsed body, typed by its `type` (narrow with `switch (event.type)`). Pass the raw body exactly
 * as received, before any JSON parsing. Throws a
 * `WebhookVerificationError` when a header is missing, no signature matches, or the timestamp is
 * more than five minutes away from this machine's clock (a replayed request).
 */
export function verifyWebhook(secret: string, headers: WebhookHeaders, body: string | Uint8Array): WebhookEvent {
  const payload = typeof body === 'string' ? body : new TextDecoder().decode(body);
  const signed: Record<string, string> = {};
  for (const name of SIGNED_HEADERS) {
    const value = header(headers, name);
    if (value !== undefined) signed[name] = value;
  }
  // The signature proves the API sent this body, and the API sends what its document describes.
  return new Webhook(secret).verify(payload, signed) as WebhookEvent;
}
