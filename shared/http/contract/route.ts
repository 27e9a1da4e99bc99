import type * as z from 'zod';
import type { AuthKind } from '../../auth/principal.js';
import type { GrantPermissionName as GrantPermission } from '../../domain/grants.js';
import type { RequiredScope } from '../../domain/scopes.js';
import type { ErrorCode } from './errors.js';

/** Routes whose work is expensive enough (scrypt) to get their own, stricter rate limits. */
export type StrictLimits = 'login' | 'signup';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

type AnyObject = z.ZodType<Record<string, unknown>, Record<string, unknown>>;

export interface RouteDef<
  P extends AnyObject = AnyObject,
  Q extends AnyObject = AnyObject,
  B extends z.ZodType = z.ZodType,
  D extends z.ZodType = z.ZodType,
> {
  method: HttpMethod;
  /** API Gateway style: `/v1/posts/{post_id}`. */
  path: string;
  /** The handler module under functions/, without extension. */
  handler: string;
  summary: string;
  description?: string;
  tag: string;
  auth: AuthKind;
  /** Required of API keys when auth is `credential`. */
  scope?: RequiredScope;
  /** `X-Profile-Id`: required, optional (e.g. viewer_reaction on a public read), or not read. */
  actingProfile?: { required: boolean; permission?: GrantPermission };
  params?: P;
  query?: Q;
  body?: B;
  /** 202: accepted, the work continues after the answer (a recovery's deliveries are sent later). */
  status: 200 | 201 | 202;
  response: D;
  /** Answer with `response` itself instead of the success envelope (only the OpenAPI document). */
  raw?: true;
  /** Takes `Idempotency-Key`: a retried create answers its first response instead of creating twice. */
  idempotent?: true;
  /** Stricter rate limits per client IP and per email (the scrypt-heavy public routes). */
  strictLimits?: StrictLimits;
  /** Error codes this operation can answer with, besides the ones every route shares. */
  errors: readonly ErrorCode[];
}

/** A route of the route table with its name there (the OpenAPI operationId, the CDK construct id). */
export type NamedRoute = RouteDef & { name: string };

export const defineRoute = <P extends AnyObject, Q extends AnyObject, B extends z.ZodType, D extends z.ZodType>(
  route: RouteDef<P, Q, B, D>,
): RouteDef<P, Q, B, D> => route;
