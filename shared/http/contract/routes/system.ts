/** The system routes: method, path, auth, schemas and the errors each can answer with. */
import * as z from 'zod';
import { defineRoute } from '../route.js';
import { Health } from '../schemas/system.js';

export const routes = {
  health: defineRoute({
    method: 'GET',
    path: '/v1/health',
    handler: 'system/health',
    tag: 'System',
    summary: 'Liveness check.',
    auth: 'none',
    status: 200,
    response: Health,
    errors: [],
    mcp: false,
  }),
  getOpenApi: defineRoute({
    method: 'GET',
    path: '/v1/openapi.json',
    handler: 'system/get-openapi',
    tag: 'System',
    summary: 'This OpenAPI 3.1 document (not wrapped in the envelope).',
    auth: 'none',
    status: 200,
    raw: true,
    response: z.record(z.string(), z.unknown()).meta({ description: 'An OpenAPI 3.1 document.' }),
    errors: [],
    mcp: false,
  }),
};
