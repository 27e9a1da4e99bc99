import type * as z from 'zod';
import type { AuthKind } from '../../auth/principal.js';
import type { GrantPermissionName as GrantPermission } from '../../domain/grants.js';
import type { RequiredScope } from '../../domain/scopes.js';
import type { ErrorCode } from './errors.js';
import type { McpToolset } from './toolsets.js';

/**
 * How long a cache may serve the anonymous answer of a `publicCache` read: a few seconds, so a
 * viral post's readers are answered by caches while its counts stay as fresh as they are
 * (they lag their writes by up to 2 s themselves).
 */
export const PUBLIC_CACHE_MAX_AGE_SECONDS = 5;

/** Routes whose work is expensive enough (scrypt) to get their own, stricter rate limits. */
export type StrictLimits = 'login' | 'signup';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

type AnyObject = z.ZodType<Record<string, unknown>, Record<string, unknown>>;

/** `X-Profile-Id`: required, optional (e.g. viewer_reaction on a public read), or not read. */
export interface ActingProfileRule<Required extends boolean = boolean> {
  required: Required;
  /** What an accepted access grant must include for a manager to act through it. */
  permission?: GrantPermission;
}

/** MCP tool hints (https://modelcontextprotocol.io/specification: ToolAnnotations). */
export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/**
 * How a route is offered as a tool of the MCP endpoint (shared/mcp/tools.ts). The description is
 * the route's summary; the annotations follow from the method unless stated here.
 */
export interface McpToolMeta {
  /** The tool's name; by default the route's name in snake_case (`getPost` → `get_post`). */
  name?: string;
  /** A short human title (`Get a post`). */
  title: string;
  /** The tool set it is listed and callable in (toolsets.ts): `/mcp?toolsets=…` selects by it. */
  toolset: McpToolset;
  /** Overrides of the annotations derived from the method. */
  annotations?: ToolAnnotations;
}

/**
 * One operation of the API. The type parameters keep what the definition states exactly (its
 * schemas, its auth kind, whether the acting profile is required), so the handler's input is
 * typed by them (see HandlerInput in ../handler.ts).
 */
export interface RouteDef<
  P extends AnyObject = AnyObject,
  Q extends AnyObject = AnyObject,
  B extends z.ZodType = z.ZodType,
  D extends z.ZodType = z.ZodType,
  A extends AuthKind = AuthKind,
  ProfileRequired extends boolean = boolean,
> {
  method: HttpMethod;
  /** API Gateway style: `/v1/posts/{post_id}`. */
  path: string;
  /** Where the handler module lives: its path under functions/, without extension (CDK and the local server load it). */
  handler: string;
  summary: string;
  description?: string;
  tag: string;
  auth: A;
  /** Required of API keys when auth is `credential`. */
  scope?: RequiredScope;
  actingProfile?: ActingProfileRule<ProfileRequired>;
  params?: P;
  query?: Q;
  body?: B;
  /** Headers the success response may carry besides the rate-limit ones (the OpenAPI document lists them). */
  responseHeaders?: z.ZodObject;
  /** 202: accepted, the work continues after the answer (a recovery's deliveries are sent later). */
  status: 200 | 201 | 202;
  /**
   * 200 besides a 201 `status`: the answer, with the same body, when what the request would create
   * already exists (a second open report of one subject answers the first). The handler answers it
   * with `withStatus`.
   */
  existingStatus?: 200;
  response: D;
  /** Answer with `response` itself instead of the success envelope (only the OpenAPI document). */
  raw?: true;
  /**
   * Answers a stream (`text/event-stream`) rather than one JSON body: a response-streaming
   * function (its module exports `streamHandler` beside `handler`), which the local server streams.
   */
  streaming?: true;
  /** Takes `Idempotency-Key`: a retried create answers its first response instead of creating twice. */
  idempotent?: true;
  /** Stricter rate limits per client IP and per email (the scrypt-heavy public routes). */
  strictLimits?: StrictLimits;
  /**
   * A public read whose answer to a request without a credential is the same for everyone: any
   * cache may hold it for PUBLIC_CACHE_MAX_AGE_SECONDS (Cache-Control, ETag, 304 on If-None-Match,
   * middleware/public-cache.ts). Answers to a credential stay `no-store`.
   */
  publicCache?: true;
  /** Error codes this operation can answer with, besides the ones every route shares. */
  errors: readonly ErrorCode[];
  /**
   * The route as an MCP tool; `false` keeps a route an API key may call out of the tool list.
   * Session-only routes are never tools and state nothing here (test/unit/mcp-tools.test.ts).
   */
  mcp?: McpToolMeta | false;
}

/** A route of the route table with its name there (the OpenAPI operationId, the CDK construct id). */
export type NamedRoute = RouteDef & { name: string };

export const defineRoute = <
  P extends AnyObject,
  Q extends AnyObject,
  B extends z.ZodType,
  D extends z.ZodType,
  A extends AuthKind,
  ProfileRequired extends boolean = false,
>(
  route: RouteDef<P, Q, B, D, A, ProfileRequired>,
): RouteDef<P, Q, B, D, A, ProfileRequired> => route;
