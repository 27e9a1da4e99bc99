import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { verifyWebhook, WebhookVerificationError } from '@social-network/sdk';

// The Standard Webhooks test vector (its reference library's tests; DESIGN.md "Signing").
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const ID = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
const TIMESTAMP = 1614265330;
const BODY = '{"test": 2432232314}';
const SIGNATURE = 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=';

const headers = (changes: Record<string, string> = {}) => ({
  'webhook-id': ID,
  'webhook-timestamp': String(TIMESTAMP),
  'webhook-signature': SIGNATURE,
  ...changes,
});
const at = (unixSeconds: number) => vi.setSystemTime(unixSeconds * 1000);

describe('verifyWebhook', () => {
  // The vector was signed in February 2021, and a receiver refuses timestamps more than five
  // minutes from its clock (replays): the tests set the clock to the vector's time.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    at(TIMESTAMP);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('accepts the Standard Webhooks test vector and returns the parsed body', () => {
    expect(verifyWebhook(SECRET, headers(), BODY)).toEqual({ test: 2432232314 });
  });

  it('takes the headers as a Headers object or in any case, and the body as bytes', () => {
    expect(verifyWebhook(SECRET, new Headers(headers()), BODY)).toEqual({ test: 2432232314 });
    const shouted = Object.fromEntries(Object.entries(headers()).map(([name, value]) => [name.toUpperCase(), value]));
    expect(verifyWebhook(SECRET, shouted, new TextEncoder().encode(BODY))).toEqual({ test: 2432232314 });
  });

  it('accepts a request when one of several signatures matches (a secret in rotation)', () => {
    const rotated = headers({ 'webhook-signature': `v1,${Buffer.alloc(32).toString('base64')} ${SIGNATURE}` });
    expect(verifyWebhook(SECRET, rotated, BODY)).toEqual({ test: 2432232314 });
  });

  it('refuses a bad signature', () => {
    const forged = headers({ 'webhook-signature': `v1,${Buffer.alloc(32, 1).toString('base64')}` });
    expect(() => verifyWebhook(SECRET, forged, BODY)).toThrow(WebhookVerificationError);
  });

  it('refuses the signature under another secret', () => {
    const otherSecret = `whsec_${randomBytes(32).toString('base64')}`;
    expect(() => verifyWebhook(otherSecret, headers(), BODY)).toThrow(WebhookVerificationError);
  });

  it('refuses a tampered body, id or timestamp (all three are signed)', () => {
    expect(() => verifyWebhook(SECRET, headers(), '{"test": 2432232315}')).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook(SECRET, headers(), '{"test":2432232314}')).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook(SECRET, headers({ 'webhook-id': 'msg_other' }), BODY)).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook(SECRET, headers({ 'webhook-timestamp': String(TIMESTAMP + 1) }), BODY)).toThrow(
      WebhookVerificationError,
    );
  });

  it('refuses a request without the signature headers', () => {
    const { 'webhook-signature': _signature, ...unsigned } = headers();
    expect(() => verifyWebhook(SECRET, unsigned, BODY)).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook(SECRET, {}, BODY)).toThrow(WebhookVerificationError);
  });

  it('refuses a timestamp more than five minutes away from the clock (a replayed or post-dated request)', () => {
    at(TIMESTAMP + 299);
    expect(verifyWebhook(SECRET, headers(), BODY)).toEqual({ test: 2432232314 });
    at(TIMESTAMP + 301);
    expect(() => verifyWebhook(SECRET, headers(), BODY)).toThrow(/too old/);
    at(TIMESTAMP - 301);
    expect(() => verifyWebhook(SECRET, headers(), BODY)).toThrow(/too new/);
  });
});
