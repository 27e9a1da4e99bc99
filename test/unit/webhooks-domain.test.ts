import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { generateSigningSecret, sign, signatureHeader, webhookHeaders } from '../../shared/domain/signing.js';
import {
  MAX_ATTEMPTS,
  SPEC_RETRY_DELAYS,
  nextAttemptAt,
  retryDelaySeconds,
} from '../../shared/domain/retry-schedule.js';
import { failingTooLong } from '../../shared/domain/endpoint-health.js';
import {
  deliveryIdFor,
  endpointMatches,
  outcomeOf,
  recoverable,
  signingSecrets,
  successRate,
  type WebhookEndpointRecord,
} from '../../shared/domain/webhooks.js';

describe('Standard Webhooks signing', () => {
  it('reproduces the known test vector of the reference library', () => {
    expect(
      sign(
        'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        'msg_p5jXN8AQM9LWM0D4loKWxJek',
        1614265330,
        '{"test": 2432232314}',
      ),
    ).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('generates whsec_ secrets of 32 random bytes that the standardwebhooks package accepts', () => {
    const secret = generateSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(generateSigningSecret()).not.toBe(secret);
    const body = '{"id":"x"}';
    const headers = webhookHeaders([secret], 'msg_1', new Date(), body);
    expect(new Webhook(secret).verify(body, headers)).toEqual({ id: 'x' });
  });

  it('signs with every current secret, space-separated, and each verifies alone', () => {
    const [a, b] = [generateSigningSecret(), generateSigningSecret()];
    const header = signatureHeader([a, b], 'msg_2', 1700000000, 'body');
    expect(header.split(' ')).toEqual([sign(a, 'msg_2', 1700000000, 'body'), sign(b, 'msg_2', 1700000000, 'body')]);
    const headers = webhookHeaders([a, b], 'msg_2', new Date(), '{}');
    expect(() => new Webhook(a).verify('{}', headers)).not.toThrow();
    expect(() => new Webhook(b).verify('{}', headers)).not.toThrow();
    expect(() => new Webhook(generateSigningSecret()).verify('{}', headers)).toThrow();
  });
});

describe('retry schedule', () => {
  it('is the spec schedule: 9 retries after the first attempt, delays from the end of the failed attempt', () => {
    expect(MAX_ATTEMPTS).toBe(10);
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => retryDelaySeconds(n, SPEC_RETRY_DELAYS))).toEqual([
      5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400,
    ]);
    expect(retryDelaySeconds(10, SPEC_RETRY_DELAYS)).toBeUndefined();
    const end = new Date('2026-01-01T00:00:00.000Z');
    expect(nextAttemptAt(2, end, SPEC_RETRY_DELAYS)?.toISOString()).toBe('2026-01-01T00:05:00.000Z');
  });
});

const endpoint = (over: Partial<WebhookEndpointRecord> = {}): WebhookEndpointRecord => ({
  id: 'e1',
  workspace_id: 'w1',
  name: 'n',
  url: 'https://example.com',
  event_types: ['post.mention', 'comment.reply'],
  profile_ids: ['p1'],
  status: 'active',
  secret: 's',
  previous_secret: null,
  previous_secret_expires_at: null,
  disabled_at: null,
  disabled_reason: null,
  rate_limit_per_second: null,
  revoked_at: null,
  created_at: '',
  updated_at: '',
  ...over,
});
const event = (over: Record<string, unknown> = {}) =>
  ({
    id: 'ev',
    type: 'post.mention',
    profile_id: 'p1',
    workspace_id: 'w1',
    created_at: '',
    data: {},
    ...over,
  }) as never;

describe('selection rule', () => {
  it('needs same workspace, active endpoint, selected profile and selected type', () => {
    expect(endpointMatches(endpoint(), event())).toBe(true);
    expect(endpointMatches(endpoint(), event({ workspace_id: 'w2' }))).toBe(false);
    expect(endpointMatches(endpoint({ status: 'disabled' }), event())).toBe(false);
    expect(endpointMatches(endpoint({ status: 'revoked' }), event())).toBe(false);
    expect(endpointMatches(endpoint(), event({ profile_id: 'p2' }))).toBe(false);
    expect(endpointMatches(endpoint(), event({ type: 'message.created' }))).toBe(false);
  });
  it('sends webhook.test only to its target endpoint', () => {
    expect(endpointMatches(endpoint(), event({ type: 'webhook.test', webhook_endpoint_id: 'e1' }))).toBe(true);
    expect(endpointMatches(endpoint({ id: 'e2' }), event({ type: 'webhook.test', webhook_endpoint_id: 'e1' }))).toBe(
      false,
    );
  });
  it('derives a stable UUID delivery id per (event, endpoint)', () => {
    const id = deliveryIdFor('ev', 'e1');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(deliveryIdFor('ev', 'e1')).toBe(id);
    expect(deliveryIdFor('ev', 'e2')).not.toBe(id);
  });
});

describe('response handling', () => {
  const at = (statusCode: number | null, error: string | null = null) => ({
    statusCode,
    error,
    responseBody: null,
    startedAt: new Date(0),
    endedAt: new Date(1000),
  });
  const delays = [1, 2, 3, 4, 5, 6, 7, 8, 9];
  it('follows the spec table', () => {
    expect(outcomeOf(1, at(200), delays).status).toBe('succeeded');
    expect(outcomeOf(1, at(299), delays).status).toBe('succeeded');
    expect(outcomeOf(1, at(410), delays)).toEqual({ status: 'failed', disableEndpoint: true, exhausted: false });
    for (const code of [301, 302, 400, 404, 500, 503]) {
      expect(outcomeOf(1, at(code), delays)).toMatchObject({ status: 'pending', nextAttemptAt: new Date(2000) });
    }
    expect(outcomeOf(3, at(null, 'timeout'), delays)).toMatchObject({
      status: 'pending',
      nextAttemptAt: new Date(4000),
    });
    expect(outcomeOf(10, at(500), delays)).toEqual({ status: 'failed', disableEndpoint: false, exhausted: true });
  });
  it('computes success_rate to 0.1 or null', () => {
    expect(successRate({ total: 0, succeeded: 0, failed: 0, pending: 0, delivering: 0 })).toBeNull();
    expect(successRate({ total: 3, succeeded: 2, failed: 1, pending: 0, delivering: 0 })).toBe(66.7);
  });
  it('signs with the previous secret only during the 24 h overlap', () => {
    const e = endpoint({
      secret: 'new',
      previous_secret: 'old',
      previous_secret_expires_at: '2026-01-02T00:00:00.000Z',
    });
    expect(signingSecrets(e, new Date('2026-01-01T12:00:00Z'))).toEqual(['new', 'old']);
    expect(signingSecrets(e, new Date('2026-01-02T00:00:01Z'))).toEqual(['new']);
  });
});

describe('recoverable: which failed deliveries a recovery over [since, until) restarts', () => {
  const since = '2026-11-20T00:00:00.000Z';
  const until = '2026-11-21T00:00:00.000Z';
  const failedAt = (updated_at: string, restarted_at: string | null = null) => ({
    status: 'failed' as const,
    updated_at,
    restarted_at,
  });
  it('takes failed deliveries last changed in the window, since inclusive, until exclusive', () => {
    expect(recoverable(failedAt(since), since, until)).toBe(true);
    expect(recoverable(failedAt('2026-11-20T12:00:00.000Z'), since, until)).toBe(true);
    expect(recoverable(failedAt(until), since, until)).toBe(false);
    expect(recoverable(failedAt('2026-11-19T23:59:59.999Z'), since, until)).toBe(false);
    expect(recoverable({ ...failedAt('2026-11-20T12:00:00.000Z'), status: 'succeeded' }, since, until)).toBe(false);
  });
  it('leaves out one restarted since the window began (a repeated recovery sends nothing twice), not one restarted before it', () => {
    expect(recoverable(failedAt('2026-11-20T12:00:00.000Z', '2026-11-20T06:00:00.000Z'), since, until)).toBe(false);
    expect(recoverable(failedAt('2026-11-20T12:00:00.000Z', '2026-11-19T06:00:00.000Z'), since, until)).toBe(true);
  });
});

describe('endpoint health and operational events', () => {
  const settings = { disableAfterMs: 5 * 86_400_000, minFailureSpreadMs: 12 * 3_600_000 };
  const since = '2026-01-01T00:00:00.000Z';
  it('disables only after the whole period of failures, and never below the spread', () => {
    expect(failingTooLong({ failing_since: null }, new Date('2026-02-01T00:00:00Z'), settings)).toBe(false);
    expect(failingTooLong({ failing_since: since }, new Date('2026-01-05T23:59:59Z'), settings)).toBe(false);
    expect(failingTooLong({ failing_since: since }, new Date('2026-01-06T00:00:00Z'), settings)).toBe(true);
    const shortPeriod = { disableAfterMs: 60_000, minFailureSpreadMs: 12 * 3_600_000 };
    expect(failingTooLong({ failing_since: since }, new Date('2026-01-01T11:59:59Z'), shortPeriod)).toBe(false);
    expect(failingTooLong({ failing_since: since }, new Date('2026-01-01T12:00:00Z'), shortPeriod)).toBe(true);
  });

  it("sends operational events to the workspace's other endpoints that select the type, whatever their profiles", () => {
    const disabled = event({ type: 'webhook_endpoint.disabled', profile_id: null, webhook_endpoint_id: 'e9' });
    expect(
      endpointMatches(endpoint({ event_types: ['webhook_endpoint.disabled'], profile_ids: ['p7'] }), disabled),
    ).toBe(true);
    expect(endpointMatches(endpoint({ event_types: ['webhook_endpoint.disabled'], id: 'e9' }), disabled)).toBe(false);
    expect(endpointMatches(endpoint({ event_types: ['webhook_delivery.exhausted'] }), disabled)).toBe(false);
    expect(
      endpointMatches(
        endpoint({ event_types: ['webhook_endpoint.disabled'] }),
        event({ type: 'webhook_endpoint.disabled', profile_id: null, webhook_endpoint_id: 'e9', workspace_id: 'w2' }),
      ),
    ).toBe(false);
    // A profile event never matches on a null profile.
    expect(endpointMatches(endpoint(), event({ profile_id: null }))).toBe(false);
  });
});
