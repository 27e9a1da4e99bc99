import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): secret `whsec_` + base64 of 32
 * random bytes; signed content `{webhook-id}.{webhook-timestamp}.{raw body}` with HMAC-SHA256 keyed
 * by the decoded secret; header value `v1,<base64>`, several signatures separated by spaces.
 */
export const SECRET_PREFIX = 'whsec_';

export function generateSigningSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

export function sign(secret: string, webhookId: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  const digest = createHmac('sha256', key).update(`${webhookId}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${digest}`;
}

/** The `webhook-signature` header: one `v1,` signature per secret currently signing, space-separated. */
export function signatureHeader(
  secrets: readonly string[],
  webhookId: string,
  timestampSeconds: number,
  body: string,
): string {
  return secrets.map((secret) => sign(secret, webhookId, timestampSeconds, body)).join(' ');
}

/** The headers of one delivery attempt; the timestamp (and so the signature) is new per attempt. */
export function webhookHeaders(
  secrets: readonly string[],
  webhookId: string,
  at: Date,
  body: string,
): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    'content-type': 'application/json',
    'user-agent': 'social-network-webhooks/0.1',
    'webhook-id': webhookId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatureHeader(secrets, webhookId, timestamp, body),
  };
}
