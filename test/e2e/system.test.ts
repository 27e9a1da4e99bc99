import { describe, expect, it } from 'vitest';
import { call, expectError } from '../support/api.js';

describe('system routes', () => {
  it('GET /v1/health answers ok in the success envelope', async () => {
    const response = await call('GET', '/v1/health');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ok: true, data: { status: 'ok' }, agent: {} });
  });

  it('an unknown path is 404 route_not_found in the error envelope', async () => {
    const body = expectError(await call('GET', '/v1/no-such-thing'), 404, 'route_not_found');
    expect(body.agent.hint).toContain('/v1');
  });

  it('a known path with the wrong method is 405 method_not_allowed with Allow', async () => {
    const response = await call('DELETE', '/v1/health');
    expectError(response, 405, 'method_not_allowed');
    expect(response.headers.get('allow')).toBe('GET');
  });

  it('lists at least 50 occupations', async () => {
    const response = await call('GET', '/v1/taxonomies/profile-options/occupations');
    expect(response.status).toBe(200);
    expect(response.body.data.length).toBeGreaterThanOrEqual(50);
    expect(response.body.data).toContainEqual({ name: 'Software Engineer' });
  });
});
