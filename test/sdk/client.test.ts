import { afterAll, describe, expect, expectTypeOf, it, inject } from 'vitest';
import { ApiProblem, createClient, unwrap, verifyWebhook } from '@social-network/sdk';
import { unique } from '../support/api.js';
import { receiverPool } from '../support/webhook-receiver.js';
import { waitFor } from '../support/webhooks.js';

const receivers = receiverPool();
afterAll(receivers.closeAll);

describe('the SDK against the local server', () => {
  it('signs up, creates a profile and an API key, then posts, reads and likes as the key’s profiles', async () => {
    const baseUrl = inject('baseUrl');
    const anonymous = createClient({ baseUrl });
    const email = `${unique('sdk')}@example.com`;
    const password = 'correct horse battery';
    const { workspace } = await unwrap(anonymous.POST('/v1/users', { body: { email, password, name: 'Ada' } }));
    const { session } = await unwrap(anonymous.POST('/v1/sessions', { body: { email, password } }));
    const owner = createClient({ baseUrl, sessionToken: session.token });
    const ada = await unwrap(
      owner.POST('/v1/profiles', { body: { type: 'human', username: unique('ada'), name: 'Ada', call_name: 'Ada' } }),
    );
    const bot = await unwrap(
      owner.POST('/v1/profiles', { body: { type: 'agent', username: unique('bot'), name: 'Bot', call_name: 'Bot' } }),
    );
    const { key } = await unwrap(
      owner.POST('/v1/workspaces/{workspace_id}/api-keys', {
        params: { path: { workspace_id: workspace.id } },
        body: { name: 'sdk test', scopes: ['all:all'], profile_ids: [ada.id, bot.id] },
      }),
    );
    expect(key).toMatch(/^sk_/);

    // Acts as Ada on every call that does not name another profile.
    const api = createClient({ baseUrl, apiKey: key, profileId: ada.id });
    const created = await unwrap(api.POST('/v1/posts', { body: { body: 'Hello from the typed SDK.' } }));
    expect(created.post.profile_id).toBe(ada.id);

    const onPost = { path: { post_id: created.post.id } };
    const read = await unwrap(api.GET('/v1/posts/{post_id}', { params: onPost }));
    expect(read.post).toMatchObject({ id: created.post.id, body: 'Hello from the typed SDK.', likes_count: 0 });
    expect(read.profile.id).toBe(ada.id);

    const asBot = { ...onPost, header: { 'x-profile-id': bot.id } };
    const liked = await unwrap(
      api.PUT('/v1/posts/{post_id}/reaction', { params: asBot, body: { reaction_type: 'like', active: true } }),
    );
    expect(liked.likes_count).toBe(1);
    // The viewer's own like at once; the count once the likes behind it are counted (within about 2 s).
    const seenByBot = await unwrap(api.GET('/v1/posts/{post_id}', { params: asBot }));
    expect(seenByBot.post.viewer_reaction).toBe('like');
    await waitFor('the like counted', async () => {
      const { post } = await unwrap(api.GET('/v1/posts/{post_id}', { params: asBot }));
      return post.likes_count === 1 ? post : undefined;
    });

    // Without a default profile the types ask for X-Profile-Id, and the API refuses the call without one.
    const unbound = createClient({ baseUrl, apiKey: key });
    // @ts-expect-error: params.header['x-profile-id'] is required on an acting route
    const refused = await unwrap(unbound.POST('/v1/posts', { body: { body: 'Who am I?' } })).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiProblem);
    expect(refused).toMatchObject({ status: 400, code: 'invalid_request' });
  });

  it('throws the error envelope as an ApiProblem with its code, message and hint', async () => {
    const baseUrl = inject('baseUrl');
    const anonymous = createClient({ baseUrl });
    const missing = await unwrap(
      anonymous.GET('/v1/posts/{post_id}', { params: { path: { post_id: '00000000-0000-4000-8000-000000000000' } } }),
    ).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(ApiProblem);
    expect(missing).toMatchObject({ status: 404, code: 'not_found', message: expect.any(String) });
    expect((missing as ApiProblem).hint).toEqual(expect.stringMatching(/\w/));

    // The error's type is the union of the operation's own error responses (shared components in the document).
    const { error } = await anonymous.GET('/v1/posts/{post_id}', {
      params: { path: { post_id: '00000000-0000-4000-8000-000000000000' } },
    });
    expectTypeOf(error!.error_code).toEqualTypeOf<
      | 'invalid_request'
      | 'unauthorized'
      | 'profile_not_permitted'
      | 'profile_suspended'
      | 'not_found'
      | 'rate_limited'
      | 'internal_error'
    >();
    expect(error?.error_code).toBe('not_found');

    const signedOut = createClient({
      baseUrl,
      apiKey: 'sk_not_a_key',
      profileId: '00000000-0000-4000-8000-000000000000',
    });
    await expect(unwrap(signedOut.POST('/v1/posts', { body: { body: 'Nope' } }))).rejects.toMatchObject({
      status: 401,
      code: 'unauthorized',
    });

    const unreachable = createClient({ baseUrl: 'http://127.0.0.1:1' });
    await expect(unwrap(unreachable.GET('/v1/health'))).rejects.toMatchObject({ status: 0, code: 'network_error' });
  });

  it('verifies a webhook delivery that a real receiver got, and returns the typed event', async () => {
    const baseUrl = inject('baseUrl');
    const anonymous = createClient({ baseUrl });
    const email = `${unique('sdk')}@example.com`;
    const password = 'correct horse battery';
    const { workspace } = await unwrap(anonymous.POST('/v1/users', { body: { email, password, name: 'Ada' } }));
    const { session } = await unwrap(anonymous.POST('/v1/sessions', { body: { email, password } }));
    const owner = createClient({ baseUrl, sessionToken: session.token });
    const profile = (username: string) =>
      unwrap(owner.POST('/v1/profiles', { body: { type: 'human', username, name: 'Pat', call_name: 'Pat' } }));
    const ada = await profile(unique('ada'));
    const fan = await profile(unique('fan'));

    const receiver = await receivers.start();
    const { secret } = await unwrap(
      owner.POST('/v1/workspaces/{workspace_id}/webhook-endpoints', {
        params: { path: { workspace_id: workspace.id } },
        body: { name: 'sdk receiver', url: receiver.url, event_types: ['profile.followed'], profile_ids: [ada.id] },
      }),
    );
    await unwrap(
      owner.POST('/v1/profile-follows', {
        params: { header: { 'x-profile-id': fan.id } },
        body: { followed_profile_id: ada.id },
      }),
    );

    const request = await waitFor('the delivery', () => receiver.received[0]);
    const event = verifyWebhook(secret, request.headers, request.body);
    expect(event).toMatchObject({ type: 'profile.followed', profile_id: ada.id });
    expect(() => verifyWebhook(secret, request.headers, request.body.replace(ada.id, fan.id))).toThrow();
  });
});
