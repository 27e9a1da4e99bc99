import type { Construct } from 'constructs';
import type { SocialNetworkStackProps } from './stack.js';

/** Stage throttling unless context says otherwise: room for a small production load, a cap on runaway clients and cost. */
export const DEFAULT_THROTTLE = { rateLimit: 100, burstLimit: 200 } as const;

/**
 * Concurrency kept for log-in (POST /v1/sessions) whatever the other routes do; it is also log-in's
 * ceiling. 0 turns the reserve off, for accounts whose concurrency quota is too low to reserve any.
 */
export const DEFAULT_LOGIN_RESERVED_CONCURRENCY = 10;

/**
 * The sender of the service's mail until `-c mailFrom=<address>` names one the deployer owns:
 * SES verifies the identity (a mail to the address, or DKIM records with `-c mailIdentityDomain`)
 * before it sends anything from it, so this placeholder sends nothing.
 */
export const DEFAULT_MAIL_FROM = 'no-reply@example.com';

type Settings = Pick<
  SocialNetworkStackProps,
  | 'deletionProtection'
  | 'throttle'
  | 'loginReservedConcurrency'
  | 'alarmEmail'
  | 'passkeys'
  | 'mailFrom'
  | 'mailIdentityDomain'
>;

/**
 * The stack's settings from CDK context. Values arrive as strings from `-c key=value` and as JSON
 * values from cdk.json, so both are accepted; anything unreadable fails the synth loudly rather
 * than deploying an unintended default.
 */
export function stackSettings(scope: Construct): Settings {
  const context = (key: string): unknown => scope.node.tryGetContext(key);
  return {
    deletionProtection: readBoolean('deletionProtection', context('deletionProtection'), true),
    throttle: {
      rateLimit: readPositiveNumber('throttleRateLimit', context('throttleRateLimit'), DEFAULT_THROTTLE.rateLimit),
      // API Gateway takes the burst as a whole number of requests.
      burstLimit: readPositiveNumber(
        'throttleBurstLimit',
        context('throttleBurstLimit'),
        DEFAULT_THROTTLE.burstLimit,
        true,
      ),
    },
    loginReservedConcurrency: readCount(
      'loginReservedConcurrency',
      context('loginReservedConcurrency'),
      DEFAULT_LOGIN_RESERVED_CONCURRENCY,
    ),
    alarmEmail: readEmail('alarmEmail', context('alarmEmail')),
    mailFrom: readEmail('mailFrom', context('mailFrom')) ?? DEFAULT_MAIL_FROM,
    mailIdentityDomain: readDomain('mailIdentityDomain', context('mailIdentityDomain')),
    passkeys: {
      rpId: readHost('passkeyRpId', context('passkeyRpId')),
      origins: readOrigins('passkeyOrigins', context('passkeyOrigins')),
    },
  };
}

function readHost(key: string, value: unknown): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value === 'string' && /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(value))
    return value;
  throw new Error(`context ${key} must be a host name (lowercase, no scheme or port), got ${JSON.stringify(value)}`);
}

/** Comma-separated (`-c`) or a JSON array (cdk.json) of https origins, without a path. */
function readOrigins(key: string, value: unknown): string[] | undefined {
  if (value === undefined || value === '') return undefined;
  const list = typeof value === 'string' ? value.split(',').map((o) => o.trim()) : value;
  if (
    Array.isArray(list) &&
    list.length > 0 &&
    list.every((o) => typeof o === 'string' && /^https:\/\/[^/\s]+$/.test(o))
  )
    return list as string[];
  throw new Error(
    `context ${key} must be https origins (https://host[:port]), comma-separated, got ${JSON.stringify(value)}`,
  );
}

function readCount(key: string, value: unknown, fallback: number): number {
  if (value === 0 || value === '0') return 0;
  return readPositiveNumber(key, value, fallback, true);
}

function readEmail(key: string, value: unknown): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value === 'string' && /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(value)) return value;
  throw new Error(`context ${key} must be an e-mail address, got ${JSON.stringify(value)}`);
}

function readDomain(key: string, value: unknown): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value === 'string' && /^(?=.{1,253}$)([a-z0-9-]+\.)+[a-z]{2,}$/i.test(value)) return value;
  throw new Error(`context ${key} must be a domain name, got ${JSON.stringify(value)}`);
}

function readBoolean(key: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw new Error(`context ${key} must be true or false, got ${JSON.stringify(value)}`);
}

function readPositiveNumber(key: string, value: unknown, fallback: number, integer = false): number {
  if (value === undefined) return fallback;
  const number =
    typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  if (!Number.isFinite(number) || number <= 0 || (integer && !Number.isInteger(number))) {
    throw new Error(
      `context ${key} must be a positive ${integer ? 'integer' : 'number'}, got ${JSON.stringify(value)}`,
    );
  }
  return number;
}
