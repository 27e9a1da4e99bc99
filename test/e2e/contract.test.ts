import { describe, expect, inject, it } from 'vitest';
import { routeList } from '../../shared/http/contract/route-table.js';
import { API_VERSION } from '../../shared/http/contract/openapi.js';
import { EVENT_TYPE_NAMES } from '../../shared/domain/events.js';
import { assertMatchesContract } from '../support/contract.js';

describe('the published contract (GET /v1/openapi.json)', () => {
  it('is an OpenAPI 3.1 document, version API_VERSION, served without the envelope', async () => {
    const response = await fetch(`${inject('baseUrl')}/v1/openapi.json`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as any;
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe(API_VERSION);
    expect(document).not.toHaveProperty('ok');
  });

  it('describes every route of the route table with its security and error codes', async () => {
    const document = (await (await fetch(`${inject('baseUrl')}/v1/openapi.json`)).json()) as any;
    for (const route of routeList) {
      const operation = document.paths[route.path]?.[route.method.toLowerCase()];
      expect(operation, `${route.method} ${route.path}`).toBeDefined();
      expect(operation.operationId).toBe(route.name);
      expect(operation.responses[String(route.status)]).toBeDefined();
      const internalError = operation.responses['500'].$ref.replace('#/components/responses/', '');
      expect(
        document.components.responses[internalError].content['application/json'].schema.properties.error_code.enum,
      ).toContain('internal_error');
      if (route.auth === 'session') expect(operation.security).toEqual([{ session: [] }]);
      if (route.auth === 'credential' && route.scope)
        expect(operation.security).toContainEqual({ apiKey: expect.arrayContaining([route.scope, 'all:all']) });
    }
  });

  it('describes the webhook payload of every event type', async () => {
    const document = (await (await fetch(`${inject('baseUrl')}/v1/openapi.json`)).json()) as any;
    for (const type of EVENT_TYPE_NAMES) expect(document.webhooks[type].post.requestBody).toBeDefined();
  });

  it('the contract check refuses a body that does not match and a status that is not documented', async () => {
    const baseUrl = inject('baseUrl');
    await expect(
      assertMatchesContract(baseUrl, 'GET', '/v1/health', 200, { ok: true, data: { status: 'ok' }, agent: {} }),
    ).resolves.toBeUndefined();
    await expect(
      assertMatchesContract(baseUrl, 'GET', '/v1/health', 200, { ok: true, data: { status: 'down' }, agent: {} }),
    ).rejects.toThrow(/does not match/);
    await expect(assertMatchesContract(baseUrl, 'GET', '/v1/health', 418, { ok: false })).rejects.toThrow(
      /does not document status 418/,
    );
    await expect(
      assertMatchesContract(baseUrl, 'POST', '/v1/users', 400, {
        ok: false,
        data: null,
        agent: {},
        error_code: 'made_up_code',
        error_message: 'x',
      }),
    ).rejects.toThrow(/does not match/);
  });
});
