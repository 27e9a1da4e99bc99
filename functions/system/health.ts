import type * as z from 'zod';
import { successResponse } from '../../shared/http/envelope.js';
import type { HttpLambda } from '../../shared/http/handler.js';
import type { routes } from './routes.js';

type Health = z.input<(typeof routes.health)['response']>;
const ok: Health = { status: 'ok' };

/**
 * `routes.health` without the middleware stack: it reads no input, no credential and no table, and
 * it is not rate-limited (README, "Decisions"), so its Lambda carries the envelope and nothing else.
 * Its status and body are checked against the OpenAPI document by the contract tests.
 */
export const handler: HttpLambda = async () => successResponse(200, ok);
