/**
 * Every environment variable the service reads, read in this one place.
 * Values are read lazily so tests and the local runtime can set the environment first.
 */
const DEFAULT_RETRY_DELAYS = '5,300,1800,7200,18000,36000,50400,72000,86400';

export type UrlPolicy = 'public-https' | 'allow-local';

/** A fixed-window limit: at most `limit` requests per `windowSeconds`. */
export interface RateLimitPolicy {
  limit: number;
  windowSeconds: number;
}

export type RateLimitPolicyName = 'credential' | 'ip' | 'login_email' | 'login_ip' | 'signup_email' | 'signup_ip';

/** `<requests>/<seconds>`; the defaults, and the variable each can be overridden by. */
const RATE_LIMITS: Record<RateLimitPolicyName, { env: string; fallback: string }> = {
  credential: { env: 'RATE_LIMIT_CREDENTIAL', fallback: '600/60' },
  ip: { env: 'RATE_LIMIT_IP', fallback: '300/60' },
  login_email: { env: 'RATE_LIMIT_LOGIN_EMAIL', fallback: '10/900' },
  login_ip: { env: 'RATE_LIMIT_LOGIN_IP', fallback: '50/900' },
  signup_email: { env: 'RATE_LIMIT_SIGNUP_EMAIL', fallback: '5/3600' },
  signup_ip: { env: 'RATE_LIMIT_SIGNUP_IP', fallback: '20/3600' },
};

/** Parsed policies by their text: every request reads its policy. */
const parsedRateLimits = new Map<string, RateLimitPolicy>();

function parseRateLimit(name: string, raw: string): RateLimitPolicy {
  const known = parsedRateLimits.get(raw);
  if (known) return known;
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(raw);
  const limit = Number(match?.[1]);
  const windowSeconds = Number(match?.[2]);
  if (!match || limit < 1 || windowSeconds < 1) throw new Error(`${name} must be <requests>/<seconds>, e.g. 600/60`);
  const policy = { limit, windowSeconds };
  parsedRateLimits.set(raw, policy);
  return policy;
}

function parseDelays(raw: string): number[] {
  const delays = raw.split(',').map((part) => Number(part.trim()));
  if (delays.length !== 9 || delays.some((d) => !Number.isFinite(d) || d < 0)) {
    throw new Error('WEBHOOK_RETRY_DELAYS must be 9 comma-separated non-negative numbers of seconds');
  }
  return delays;
}

function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive whole number`);
  return value;
}

export const config = {
  get tableName(): string {
    return process.env.TABLE_NAME ?? 'social-network';
  },
  /** Set locally (DynamoDB Local); unset in AWS. */
  get dynamodbEndpoint(): string | undefined {
    return process.env.DYNAMODB_ENDPOINT || undefined;
  },
  get region(): string {
    return process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? 'us-east-1';
  },
  get port(): number {
    return Number(process.env.PORT ?? 3000);
  },
  get dataDir(): string {
    return process.env.DATA_DIR ?? '.data';
  },
  /** Seconds before attempts 2..10 of a webhook delivery. */
  get webhookRetryDelays(): number[] {
    return parseDelays(process.env.WEBHOOK_RETRY_DELAYS ?? DEFAULT_RETRY_DELAYS);
  },
  get webhookTimeoutMs(): number {
    return Number(process.env.WEBHOOK_TIMEOUT_MS ?? 15_000);
  },
  get webhookUrlPolicy(): UrlPolicy {
    return process.env.WEBHOOK_URL_POLICY === 'allow-local' ? 'allow-local' : 'public-https';
  },
  /** Days a webhook delivery and its attempts are kept after their last change (DynamoDB TTL). */
  get webhookRetentionDays(): number {
    const days = Number(process.env.WEBHOOK_RETENTION_DAYS ?? 30);
    if (!Number.isFinite(days) || days <= 0)
      throw new Error('WEBHOOK_RETENTION_DAYS must be a positive number of days');
    return days;
  },
  /** CloudWatch namespace of the delivery metrics (Powertools reads the same variable). */
  get metricsNamespace(): string {
    return process.env.POWERTOOLS_METRICS_NAMESPACE ?? 'SocialNetwork';
  },
  /** Active (not disabled, not revoked) webhook endpoints one workspace may have. */
  get webhookMaxActiveEndpoints(): number {
    return positiveInt('WEBHOOK_MAX_ACTIVE_ENDPOINTS', 20);
  },
  /** Attempts in flight at once to one endpoint; more are deferred on the queue, never dropped. */
  get webhookEndpointMaxInFlight(): number {
    return positiveInt('WEBHOOK_ENDPOINT_MAX_IN_FLIGHT', 4);
  },
  /** Attempts in flight at once for one workspace, all its endpoints together (deferred likewise). */
  get webhookWorkspaceMaxInFlight(): number {
    return positiveInt('WEBHOOK_WORKSPACE_MAX_IN_FLIGHT', 10);
  },
  /** Delivery records written in parallel for one event by the fan-out. */
  get webhookFanOutConcurrency(): number {
    return positiveInt('WEBHOOK_FAN_OUT_CONCURRENCY', 8);
  },
  /** An endpoint whose attempts have all failed for this long (seconds) is disabled. */
  get webhookHealthDisableAfterMs(): number {
    return positiveInt('WEBHOOK_HEALTH_DISABLE_AFTER', 5 * 86_400) * 1000;
  },
  /** ... and only if its failed attempts are at least this far apart (seconds): a short burst never disables. */
  get webhookHealthMinFailureSpreadMs(): number {
    return positiveInt('WEBHOOK_HEALTH_MIN_FAILURE_SPREAD', 12 * 3600) * 1000;
  },
  /**
   * Authors with more followers than this are not fanned out into their followers' inboxes: their
   * posts are merged into each follower's feed at read time.
   */
  get feedFanOutMaxFollowers(): number {
    return positiveInt('FEED_FANOUT_MAX_FOLLOWERS', 10_000);
  },
  /** The queue between the feed's stream consumer and the inbox writer (AWS only). */
  get feedQueueUrl(): string | undefined {
    return process.env.FEED_QUEUE_URL;
  },
  /** The queue of data export jobs (AWS only). */
  get exportQueueUrl(): string | undefined {
    return process.env.EXPORT_QUEUE_URL || undefined;
  },
  /** The private bucket of data export archives (AWS only). */
  get exportBucket(): string | undefined {
    return process.env.EXPORT_BUCKET || undefined;
  },
  /** The rate-limit policies, each overridable by its environment variable. */
  rateLimit(name: RateLimitPolicyName): RateLimitPolicy {
    const { env, fallback } = RATE_LIMITS[name];
    return parseRateLimit(env, process.env[env] ?? fallback);
  },
  /**
   * log2 of scrypt's N for new password hashes (r=8, p=1). The default 17 is OWASP's current
   * minimum; the test server lowers it so hundreds of sign-ups stay fast.
   */
  get scryptLog2N(): number {
    const value = Number(process.env.PASSWORD_SCRYPT_LOG2_N ?? 17);
    if (!Number.isInteger(value) || value < 10 || value > 20)
      throw new Error('PASSWORD_SCRYPT_LOG2_N must be an integer from 10 to 20');
    return value;
  },
  /** The bucket presigned uploads land in (under `incoming/`); its ObjectCreated event runs the processor. AWS only. */
  get mediaUploadBucket(): string | undefined {
    return process.env.MEDIA_UPLOAD_BUCKET || undefined;
  },
  /** The private bucket of the processed files, behind the CDN. AWS only. */
  get mediaBucket(): string | undefined {
    return process.env.MEDIA_BUCKET || undefined;
  },
  /**
   * Public base URL of the media files, without a trailing slash (a file's URL is the base, `/`
   * and its key): the CDN's in AWS; locally the local server's own address and `/local-media`
   * unless set. Only the processor reads it (it stores each media's URLs).
   */
  get mediaBaseUrl(): string | undefined {
    return process.env.MEDIA_BASE_URL?.replace(/\/+$/, '') || undefined;
  },
  get deliveriesQueueUrl(): string | undefined {
    return process.env.DELIVERIES_QUEUE_URL;
  },
  get deliveriesQueueArn(): string | undefined {
    return process.env.DELIVERIES_QUEUE_ARN;
  },
  get schedulerGroupName(): string | undefined {
    return process.env.SCHEDULER_GROUP_NAME;
  },
  get schedulerRoleArn(): string | undefined {
    return process.env.SCHEDULER_ROLE_ARN;
  },
  /** The erasure's queue of steps (AWS only), and its ARN for the one-off schedules that start a job. */
  get erasureQueueUrl(): string | undefined {
    return process.env.ERASURE_QUEUE_URL;
  },
  get erasureQueueArn(): string | undefined {
    return process.env.ERASURE_QUEUE_ARN;
  },
  /** The AppSync Events API's HTTP endpoint (`https://<http domain>`) the live publisher posts to. AWS only. */
  get appSyncEventsEndpoint(): string | undefined {
    return process.env.APPSYNC_EVENTS_ENDPOINT || undefined;
  },
  /** The OpenSearch domain's endpoint (`https://...`) the search routes and the indexing Lambda use. AWS only. */
  get searchEndpoint(): string | undefined {
    return process.env.SEARCH_ENDPOINT || undefined;
  },
  /** The KMS key that signs agent cards (AWS only; the stack sets it on the functions that sign or serve its key). */
  get agentCardKeyId(): string {
    const keyId = process.env.AGENT_CARD_KEY_ID;
    if (!keyId) throw new Error('AGENT_CARD_KEY_ID is not set: the agent card signing key is unknown');
    return keyId;
  },
  /** The sender of the service's mail (an SES identity in AWS). */
  get mailFrom(): string {
    return process.env.MAIL_FROM || 'Social Network <no-reply@localhost>';
  },
  /** The SES configuration set whose bounces and complaints reach the suppression function (AWS only). */
  get mailConfigurationSet(): string | undefined {
    return process.env.MAIL_CONFIGURATION_SET || undefined;
  },
  /**
   * The WebAuthn relying party ID passkeys are bound to: the host the console is served from (or a
   * registrable suffix of it). Locally `localhost`.
   */
  get webauthnRpId(): string {
    return process.env.WEBAUTHN_RP_ID || 'localhost';
  },
  /**
   * The origins a passkey ceremony may come from (comma-separated in `WEBAUTHN_ORIGINS`): the
   * console's. Locally `http://localhost:<PORT>`, where the local server serves the console too.
   */
  get webauthnOrigins(): string[] {
    const raw = process.env.WEBAUTHN_ORIGINS || `http://localhost:${this.port}`;
    return raw
      .split(',')
      .map((origin) => origin.trim().replace(/\/+$/, ''))
      .filter(Boolean);
  },
  /**
   * The service's public base URL without a trailing slash (the OAuth issuer), when it is fixed
   * (a custom domain in front of API Gateway). Unset, each request's own origin is the base: the
   * API Gateway URL in AWS (https, its Host), `http://127.0.0.1:<port>` locally.
   */
  get publicBaseUrl(): string | undefined {
    return process.env.PUBLIC_BASE_URL?.replace(/\/+$/, '') || undefined;
  },
};
