import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { config, type RateLimitPolicy, type RateLimitPolicyName } from '../../config.js';
import { parseOAuthToken } from '../../domain/oauth.js';
import { parseToken } from '../../domain/secret-tokens.js';
import { logger } from '../../logger.js';
import { rateLimitBudgets, type WindowHit } from '../../store/rate-limit-budgets.js';
import { emailSubject, windowAt } from '../../store/rate-limits.js';
import { errorResponse } from '../envelope.js';
import { ApiError } from '../contract/errors.js';
import type { StrictLimits } from '../contract/route.js';
import type { ApiMiddleware } from './api-event.js';

export interface RateLimitOptions {
  /** `login` / `signup`: per client IP (and per email for sign-up) instead of the general limit. */
  strict?: StrictLimits | undefined;
  /**
   * Without a credential to read, a side-effect-free request counts beside the handler's own
   * reads and is refused after them, so the public reads gain no sequential round trip.
   */
  deferWithoutCredential: boolean;
}

type Hit = WindowHit | undefined;

interface Check {
  policy: RateLimitPolicyName;
  rule: RateLimitPolicy;
  /** Seconds until this window ends. */
  reset: number;
  /** Known at once when the process's slice had room (most requests); a promise while a booking runs. */
  hit: Hit | Promise<Hit>;
}

interface State {
  checks: Check[];
  deferred: boolean;
  results?: Hit[];
}

const states = new WeakMap<object, State>();

/** Runs before authentication, on the event as API Gateway sends it. */
type RawMiddleware = MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>;

/**
 * The most requests of a window one process books at once. Log-in and sign-up book one at a
 * time: every attempt is counted in the table. The general limits book up to a tenth of the
 * window, so a busy process writes the counter about once per tenth.
 */
function maxSlice(policy: RateLimitPolicyName, rule: RateLimitPolicy): number {
  return policy === 'credential' || policy === 'ip' ? Math.max(1, Math.floor(rule.limit / 10)) : 1;
}

function startCheck(policy: RateLimitPolicyName, subject: string, nowMs: number): Check {
  const rule = config.rateLimit(policy);
  const { windowStart, reset } = windowAt(Math.floor(nowMs / 1000), rule.windowSeconds);
  const window = { policy, subject, windowStart, windowSeconds: rule.windowSeconds, limit: rule.limit };
  const taken = rateLimitBudgets.take(window, maxSlice(policy, rule));
  const hit =
    taken instanceof Promise
      ? taken.catch((error: unknown) => {
          // The counter is a guard, not the service: when it cannot be written the request goes on.
          logger.warn('rate-limit counter unavailable', { error, policy });
          return undefined;
        })
      : taken;
  return { policy, rule, reset, hit };
}

/**
 * The bearer credential's id when the header carries one of our tokens; its validity is
 * authenticate's job. An OAuth access token counts as its grant, as a key does as itself: the
 * grant's tokens, refreshed every hour, share one window.
 */
function credentialSubject(event: APIGatewayProxyEventV2): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(event.headers?.authorization?.trim() ?? '');
  if (!match) return undefined;
  const token = parseToken(match[1]!);
  if (token) return `${token.kind}_${token.id}`;
  const oauth = parseOAuthToken(match[1]!);
  return oauth?.kind === 'oat' ? `oat_${oauth.grantId}` : undefined;
}

const clientIp = (event: APIGatewayProxyEventV2) => event.requestContext?.http?.sourceIp ?? 'unknown';

/** The checks' hits: at once when none is waiting for a booking, else a promise of them. */
function settle(state: State): Hit[] | Promise<Hit[]> {
  if (state.results) return state.results;
  const hits = state.checks.map((check) => check.hit);
  if (hits.some((hit) => hit instanceof Promise))
    return Promise.all(hits.map(async (hit) => hit)).then((results) => (state.results = results));
  return (state.results = hits as Hit[]);
}

function limitedError(state: State, results: Hit[]): ApiError | undefined {
  const refused = state.checks.filter((_, i) => results[i]?.limited);
  if (refused.length === 0) return undefined;
  return rateLimited(Math.max(...refused.map((check) => check.reset)));
}

/** The 429 of every limit, the log-in throttle's included. */
export const rateLimited = (retryAfter: number): ApiError =>
  new ApiError('rate_limited', {
    message: `Too many requests; retry in ${retryAfter} s.`,
    hint: 'Wait for the number of seconds in Retry-After; RateLimit and RateLimit-Policy describe the limit.',
    headers: { 'retry-after': String(retryAfter) },
  });

/**
 * One policy's item of RateLimit-Policy, made once per policy and rule (config keeps one rule
 * object per setting): it is on every response.
 */
const policyItems = new WeakMap<RateLimitPolicy, Partial<Record<RateLimitPolicyName, string>>>();
function policyItem({ policy, rule }: Check): string {
  let items = policyItems.get(rule);
  if (!items) policyItems.set(rule, (items = {}));
  return (items[policy] ??= `"${policy}";q=${rule.limit};w=${rule.windowSeconds}`);
}

/** The IETF httpapi RateLimit fields, structured-field form: one item per policy counted. */
function headers(state: State, results: Hit[]): Record<string, string> {
  if (state.checks.length === 0) return {};
  return {
    'ratelimit-policy': state.checks.map(policyItem).join(', '),
    ratelimit: state.checks
      .map((c, i) => `"${c.policy}";r=${Math.max(0, c.rule.limit - (results[i]?.count ?? 0))};t=${c.reset}`)
      .join(', '),
  };
}

function refuseOver(state: State, results: Hit[]): void {
  const refused = limitedError(state, results);
  if (refused) throw refused;
}

function addHeaders(
  response: APIGatewayProxyStructuredResultV2 | null | undefined,
  extra: Record<string, string>,
): void {
  if (response) response.headers = { ...response.headers, ...extra };
}

interface Finishing {
  event: APIGatewayProxyEventV2;
  response: APIGatewayProxyStructuredResultV2 | null | undefined;
}

/**
 * Waits for the counts (when a booking is still running), refuses a deferred request that was
 * over its limit, and writes the headers.
 */
function finish(request: Finishing): void | Promise<void> {
  const state = states.get(request.event);
  if (!state) return;
  const results = settle(state);
  if (results instanceof Promise) return results.then((settled) => answer(request, state, settled));
  answer(request, state, results);
}

function answer(request: Finishing, state: State, results: Hit[]): void {
  const refused = state.deferred ? limitedError(state, results) : undefined;
  if (refused) request.response = errorResponse(refused);
  addHeaders(request.response, headers(state, results));
}

/**
 * Rate limits per credential (or per client IP without one), counted in DynamoDB fixed windows.
 * Two hooks: `count` goes first in the stack, starts the counter update without waiting and
 * writes the RateLimit headers on every response; `enforce` goes after authentication and the
 * body parser, so the counter update runs in parallel with the credential read, and refuses the
 * request with 429 before the handler does any work.
 */
export function rateLimit({ strict, deferWithoutCredential }: RateLimitOptions): {
  count: RawMiddleware;
  enforce: ApiMiddleware;
} {
  // Neither hook is async: for most requests nothing is waited for, and each promise would be
  // one more step on every request.
  const count: RawMiddleware = {
    before: ({ event }) => {
      const now = Date.now();
      const credential = credentialSubject(event);
      const checks = strict
        ? [startCheck(`${strict}_ip`, clientIp(event), now)]
        : [credential ? startCheck('credential', credential, now) : startCheck('ip', clientIp(event), now)];
      states.set(event, { checks, deferred: deferWithoutCredential && !credential });
    },
    after: finish,
    onError: finish,
  };

  const enforce: ApiMiddleware = {
    before: ({ event }) => {
      const state = states.get(event);
      if (!state) return;
      // The JSON body parser has run: the body is the parsed object, whatever the event's type says.
      const body: unknown = event.body;
      const email = typeof body === 'object' && body !== null && 'email' in body ? body.email : undefined;
      // The log-in's per-email limit counts failures only, so the handler keeps it (store/login-throttle.ts).
      if (strict === 'signup' && typeof email === 'string')
        state.checks.push(startCheck(`${strict}_email`, emailSubject(email), Date.now()));
      if (state.deferred) return;
      const results = settle(state);
      if (results instanceof Promise) return results.then((settled) => refuseOver(state, settled));
      refuseOver(state, results);
    },
  };

  return { count, enforce };
}
