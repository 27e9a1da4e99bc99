import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { call, createApiKey, expectError, signUp, unique } from '../support/api.js';
import { startLocalServer, type LocalServer } from '../../infra/local/server-process.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';
import {
  createEndpoint,
  emitEvent,
  waitForDelivery,
  workspaceWithProfiles,
  type Workspace,
} from '../support/webhooks.js';

const base = (ws: Workspace) => `/v1/workspaces/${ws.workspace.id}/webhook-endpoints`;
const receivers: Receiver[] = [];
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

describe('webhook endpoint management', () => {
  it('creates an endpoint with a whsec_ secret shown once, and lists workspace, available profiles and endpoints without secrets', async () => {
    const ws = await workspaceWithProfiles(2);
    const created = await call('POST', base(ws), {
      token: ws.token,
      body: {
        name: 'CRM sync',
        url: 'https://hooks.example.com/in',
        event_types: ['post.mention', 'comment.reply'],
        profile_ids: [ws.profiles[0]!.id],
      },
    });
    expect(created.status).toBe(201);
    const { webhook_endpoint, secret } = created.body.data;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(webhook_endpoint).toMatchObject({
      name: 'CRM sync',
      url: 'https://hooks.example.com/in',
      event_types: ['post.mention', 'comment.reply'],
      status: 'active',
      disabled_at: null,
    });
    expect(webhook_endpoint.profiles.map((p: { id: string }) => p.id)).toEqual([ws.profiles[0]!.id]);
    expect(webhook_endpoint.profiles[0]).toHaveProperty('username');

    const list = await call('GET', base(ws), { token: ws.token });
    expect(list.status).toBe(200);
    expect(list.body.data.workspace).toEqual({ id: ws.workspace.id, name: ws.workspace.name });
    expect(list.body.data.available_profiles.map((p: { id: string }) => p.id).sort()).toEqual(
      ws.profiles.map((p) => p.id).sort(),
    );
    expect(list.body.data.items).toEqual([webhook_endpoint]);
    expect(JSON.stringify(list.body)).not.toContain(secret);
  });

  it('PATCH keeps the id and secret; rotate-secret signs with old and new for the overlap', async () => {
    const ws = await workspaceWithProfiles(2);
    const r = await startReceiver(() => 200);
    receivers.push(r);
    const { webhook_endpoint, secret } = await createEndpoint(ws, { url: 'https://hooks.example.com/old' });
    const patched = await call('PATCH', `${base(ws)}/${webhook_endpoint.id}`, {
      token: ws.token,
      body: { url: r.url, name: 'Renamed', profile_ids: [ws.profiles[1]!.id], event_types: ['message.created'] },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data.webhook_endpoint).toMatchObject({
      id: webhook_endpoint.id,
      url: r.url,
      name: 'Renamed',
      event_types: ['message.created'],
    });
    expect(patched.body.data.webhook_endpoint.profiles.map((p: { id: string }) => p.id)).toEqual([ws.profiles[1]!.id]);

    const rotated = await call('POST', `${base(ws)}/${webhook_endpoint.id}/rotate-secret`, { token: ws.token });
    expect(rotated.status).toBe(200);
    const fresh = rotated.body.data.secret as string;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(secret);
    r.secrets.push(secret, fresh);
    const eventId = await emitEvent(ws, { type: 'message.created', profileId: ws.profiles[1]!.id });
    await waitForDelivery(ws, eventId, 'succeeded');
    const request = r.received[0]!;
    expect(String(request.headers['webhook-signature']).split(' ')).toHaveLength(2);
    // The secret set at creation survived the PATCH, and both the old and the new secret verify.
    expect(request.verifiedBy).toEqual([0, 1]);
  });

  it('validates name, url, event types and profiles without echoing input', async () => {
    const ws = await workspaceWithProfiles(1);
    const other = await workspaceWithProfiles(1);
    const valid = {
      name: 'x',
      url: 'https://hooks.example.com',
      event_types: ['post.mention'],
      profile_ids: [ws.profiles[0]!.id],
    };
    const bad = async (body: Record<string, unknown>, status = 400, code = 'invalid_request') =>
      expectError(await call('POST', base(ws), { token: ws.token, body: { ...valid, ...body } }), status, code);
    await bad({ name: 'n'.repeat(81) });
    await bad({ name: '' });
    await bad({ url: `https://hooks.example.com/${'a'.repeat(2048)}` });
    const http = await bad({ url: 'http://hooks.example.com/secret-path' });
    expect(JSON.stringify(http)).not.toContain('secret-path');
    await bad({ url: 'https://user:pw@hooks.example.com' });
    await bad({ url: 'https://169.254.169.254/latest' });
    await bad({ event_types: [] });
    await bad({ event_types: ['post.mention', 'post.mention'] });
    await bad({ event_types: ['no.such'] });
    await bad({ event_types: ['webhook.test'] });
    await bad({ profile_ids: [] });
    await bad({ extra: true });
    await bad({ profile_ids: [other.profiles[0]!.id] }, 403, 'forbidden');
    expectError(
      await call('PATCH', `${base(ws)}/${(await createEndpoint(ws, { url: valid.url })).webhook_endpoint.id}`, {
        token: ws.token,
        body: {},
      }),
      400,
      'invalid_request',
    );
  });

  it('is for owner/admin sessions only: API keys get session_required, members and outsiders forbidden, other workspaces 404', async () => {
    const ws = await workspaceWithProfiles(1);
    const { webhook_endpoint } = await createEndpoint(ws, { url: 'https://hooks.example.com' });
    const { key } = await createApiKey(ws.token, ws.workspace.id, ['all:all'], [ws.profiles[0]!.id]);
    expectError(await call('GET', base(ws), { token: key }), 403, 'session_required');
    expectError(await call('POST', base(ws), { token: key, body: {} }), 403, 'session_required');
    expectError(await call('DELETE', `${base(ws)}/${webhook_endpoint.id}`, { token: key }), 403, 'session_required');
    expectError(
      await call('GET', `/v1/workspaces/${ws.workspace.id}/webhook-deliveries`, { token: key }),
      403,
      'session_required',
    );

    const member = await signUp('Member');
    const added = await call('POST', `/v1/workspaces/${ws.workspace.id}/members`, {
      token: ws.token,
      body: { email: member.email, role: 'member' },
    });
    expect(added.status).toBe(201);
    expectError(await call('GET', base(ws), { token: member.token }), 403, 'forbidden');
    expectError(
      await call('PATCH', `${base(ws)}/${webhook_endpoint.id}`, { token: member.token, body: { name: 'x' } }),
      403,
      'forbidden',
    );
    const outsider = await workspaceWithProfiles(1);
    expectError(await call('GET', base(ws), { token: outsider.token }), 403, 'forbidden');
    // An endpoint of another workspace is not visible through one's own workspace.
    expectError(
      await call('PATCH', `${base(outsider)}/${webhook_endpoint.id}`, { token: outsider.token, body: { name: 'x' } }),
      404,
      'not_found',
    );
    expectError(
      await call('GET', `/v1/workspaces/${outsider.workspace.id}/webhook-deliveries/${webhook_endpoint.id}`, {
        token: outsider.token,
      }),
      404,
      'not_found',
    );

    const admin = await signUp('Admin');
    await call('POST', `/v1/workspaces/${ws.workspace.id}/members`, {
      token: ws.token,
      body: { email: admin.email, role: 'admin' },
    });
    expect((await call('GET', base(ws), { token: admin.token })).status).toBe(200);
  });

  it('revoking is immediate, shown as revoked, and harmless to repeat', async () => {
    const ws = await workspaceWithProfiles(1);
    const { webhook_endpoint } = await createEndpoint(ws, { url: 'https://hooks.example.com' });
    const first = await call('DELETE', `${base(ws)}/${webhook_endpoint.id}`, { token: ws.token });
    expect(first.body.data.webhook_endpoint.status).toBe('revoked');
    const again = await call('DELETE', `${base(ws)}/${webhook_endpoint.id}`, { token: ws.token });
    expect(again.status).toBe(200);
    expect(again.body.data.webhook_endpoint.status).toBe('revoked');
  });
});

describe('outbound safety on a public-https server', () => {
  let server: LocalServer;
  beforeAll(async () => {
    server = await startLocalServer({
      DYNAMODB_ENDPOINT: inject('dynamodbEndpoint'),
      TABLE_NAME: unique('wh_public'),
      WEBHOOK_URL_POLICY: 'public-https',
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('refuses loopback, private, link-local and metadata receivers at creation', async () => {
    const ws = await workspaceWithProfiles(1, server.baseUrl);
    const post = (url: string) =>
      call('POST', base(ws), {
        baseUrl: server.baseUrl,
        token: ws.token,
        body: { name: 'x', url, event_types: ['post.mention'], profile_ids: [ws.profiles[0]!.id] },
      });
    for (const url of [
      'http://127.0.0.1:4000/hooks',
      'https://127.0.0.1/hooks',
      'https://localhost/hooks',
      'https://[::1]/',
      'https://10.0.0.8/',
      'https://192.168.1.10/',
      'https://172.16.0.1/',
      'https://169.254.169.254/latest/meta-data/',
      'https://[fe80::1]/',
      'https://100.64.1.1/',
      'https://[fd12::1]/',
      'https://localhost.:4000/hooks',
      'https://LOCALHOST./hooks',
      'https://foo.localhost./x',
      'https://127.0.0.1./hooks',
    ]) {
      const body = expectError(await post(url), 400, 'invalid_request');
      expect(body.agent.hint).toMatch(/url/);
    }
    expect((await post('https://hooks.example.com/in')).status).toBe(201);
  });

  it('stores the URL normalised (host lower-cased, trailing dot removed) and refuses fragments and control characters, on create and update', async () => {
    const ws = await workspaceWithProfiles(1, server.baseUrl);
    const body = (url: string) => ({
      name: 'x',
      url,
      event_types: ['post.mention'],
      profile_ids: [ws.profiles[0]!.id],
    });
    const created = await call('POST', base(ws), {
      baseUrl: server.baseUrl,
      token: ws.token,
      body: body('HTTPS://Hooks.Example.COM./In?A=B'),
    });
    expect(created.status).toBe(201);
    expect(created.body.data.webhook_endpoint.url).toBe('https://hooks.example.com/In?A=B');
    const id = created.body.data.webhook_endpoint.id;
    for (const url of [
      'https://hooks.example.com/in#frag',
      'https://hooks.example.com/in#',
      'https://hooks.example.com/in\r\nX-Injected: 1',
      'https://hooks.example.com/a\tb',
      'https://hooks.example.com/a b',
      '\u0000https://hooks.example.com/',
      'https://hooks.example.com/\u0085',
    ]) {
      const refused = expectError(
        await call('POST', base(ws), { baseUrl: server.baseUrl, token: ws.token, body: body(url) }),
        400,
        'invalid_request',
      );
      expect(refused.agent.hint).toMatch(/url must not contain/);
      expectError(
        await call('PATCH', `${base(ws)}/${id}`, { baseUrl: server.baseUrl, token: ws.token, body: { url } }),
        400,
        'invalid_request',
      );
    }
    expectError(
      await call('PATCH', `${base(ws)}/${id}`, {
        baseUrl: server.baseUrl,
        token: ws.token,
        body: { url: 'https://localhost.:8443/x' },
      }),
      400,
      'invalid_request',
    );
    const updated = await call('PATCH', `${base(ws)}/${id}`, {
      baseUrl: server.baseUrl,
      token: ws.token,
      body: { url: 'https://NEW.example.org./hook' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data.webhook_endpoint.url).toBe('https://new.example.org/hook');
  });
});
