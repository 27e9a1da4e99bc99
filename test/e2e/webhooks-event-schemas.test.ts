import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, inject, it } from 'vitest';
import { EVENT_TYPE_NAMES, TEST_EVENT_TYPE } from '../../shared/domain/events.js';
import { GENEROUS_RATE_LIMITS } from '../support/global-setup.js';
import { call, unique, type ApiResponse } from '../support/api.js';
import { eventSchemaValidator } from '../support/event-schemas.js';
import { createEndpoint, dedicatedServer, waitFor, workspaceWithProfiles } from '../support/webhooks.js';

// A server of its own: a failing delivery is retried at once, so one is exhausted within seconds.
const env = {
  DYNAMODB_ENDPOINT: inject('dynamodbEndpoint'),
  TABLE_NAME: unique('wh_schemas'),
  WEBHOOK_URL_POLICY: 'allow-local',
  PASSWORD_SCRYPT_LOG2_N: '14',
  ...GENEROUS_RATE_LIMITS,
  WEBHOOK_RETRY_DELAYS: '0,0,0,0,0,0,0,0,0',
  WEBHOOK_TIMEOUT_MS: '2000',
};
const server = dedicatedServer(env);
const ALL_TYPES = [...EVENT_TYPE_NAMES, TEST_EVENT_TYPE];

const ok = <T = any>(response: ApiResponse<T>, status = 200): T => {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  return response.body.data;
};

/**
 * Validates against the live OpenAPI document: the webhook's request body refers to
 * `#/components/schemas/…`, so the components sit where those pointers lead. Not strict: the
 * document's schemas carry OpenAPI's `example`.
 */
function openApiValidator(document: any) {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  return (type: string, body: unknown) => {
    const validate = ajv.compile({
      ...document.webhooks[type].post.requestBody.content['application/json'].schema,
      components: { schemas: document.components.schemas },
    });
    return validate(body) ? [] : validate.errors;
  };
}

describe('every delivered webhook body validates against its published schema', () => {
  it('delivers each event type through the API and checks each body with ajv against the live catalogue and OpenAPI document', async () => {
    const baseUrl = server.baseUrl;
    const as = (ws: { token: string }, profileId: string) => ({ baseUrl, token: ws.token, profileId });
    const owner = await workspaceWithProfiles(1, baseUrl);
    const other = await workspaceWithProfiles(1, baseUrl);
    const alice = owner.profiles[0]!;
    const bob = other.profiles[0]!;
    const asAlice = as(owner, alice.id);
    const asBob = as(other, bob.id);

    // The observer selects every type for alice; two more endpoints fail (410, then 500 ten times)
    // on a message, for webhook_endpoint.disabled and webhook_delivery.exhausted.
    const observer = await server.receiver(() => 200);
    const observed = await createEndpoint(owner, { url: observer.url, event_types: [...EVENT_TYPE_NAMES] });
    observer.secrets.push(observed.secret);
    const gone = await server.receiver(() => 410);
    await createEndpoint(owner, { url: gone.url, name: 'gone', event_types: ['message.created'] });
    const failing = await server.receiver(() => 500);
    await createEndpoint(owner, { url: failing.url, name: 'failing', event_types: ['message.created'] });

    const alicePost = ok(await call('POST', '/v1/posts', { ...asAlice, body: { body: 'Notes on the engine' } }), 201);
    ok(await call('POST', '/v1/posts', { ...asBob, body: { body: `Thanks @${alice.username}` } }), 201);
    ok(
      await call('POST', '/v1/posts', { ...asBob, body: { body: 'Agreed', reply_to_post_id: alicePost.post.id } }),
      201,
    );
    ok(
      await call('POST', '/v1/posts', {
        ...asBob,
        body: { body: 'Worth a read', quote_of_post_id: alicePost.post.id },
      }),
      201,
    );
    const bobComment = ok(
      await call('POST', `/v1/posts/${alicePost.post.id}/comments`, { ...asBob, body: { body: 'Which one?' } }),
      201,
    );
    ok(await call('DELETE', `/v1/comments/${bobComment.comment.id}`, asBob));
    const aliceComment = ok(
      await call('POST', `/v1/posts/${alicePost.post.id}/comments`, { ...asAlice, body: { body: 'Thoughts welcome' } }),
      201,
    );
    ok(
      await call('POST', `/v1/posts/${alicePost.post.id}/comments`, {
        ...asBob,
        body: { body: 'Here is one', parent_comment_id: aliceComment.comment.id },
      }),
      201,
    );
    // Alice follows Bob: his message lands in her inbox (a stranger's first message, in requests, has no event).
    ok(await call('POST', '/v1/profile-follows', { ...asAlice, body: { followed_profile_id: bob.id } }), 201);
    ok(
      await call('POST', '/v1/messages', { ...asBob, body: { recipient_profile_id: alice.id, body: 'Coffee?' } }),
      201,
    );
    ok(await call('POST', '/v1/profile-follows', { ...asBob, body: { followed_profile_id: alice.id } }), 201);
    const { access_grant } = ok(
      await call('POST', '/v1/profile-access', {
        baseUrl,
        token: owner.token,
        body: { profile_id: alice.id, manager_profile_id: bob.id, permissions: ['posting'] },
      }),
      201,
    );
    ok(await call('POST', `/v1/profile-access/invitations/${access_grant.id}/accept`, { baseUrl, token: other.token }));
    ok(
      await call(
        'POST',
        `/v1/workspaces/${owner.workspace.id}/webhook-endpoints/${observed.webhook_endpoint.id}/test`,
        { baseUrl, token: owner.token },
      ),
    );

    // Then bob's profile is erased: post.deleted (its reply) and profile.deleted (it followed alice) go to alice.
    // Only once everything else was delivered: the erasure deletes the stored events that carry bob.
    const erasing = new Set(['post.deleted', 'profile.deleted']);
    await waitFor(
      "a delivery of every event type but the erasure's",
      () => {
        const types = new Set(observer.received.filter((r) => r.verified).map((r) => JSON.parse(r.body).type));
        return ALL_TYPES.every((t) => erasing.has(t) || types.has(t)) ? true : undefined;
      },
      30_000,
    );
    ok(
      await call('DELETE', `/v1/profiles/${bob.id}`, {
        baseUrl,
        token: other.token,
        body: { confirm_username: bob.username },
      }),
    );

    const bodies = await waitFor(
      'a delivery of every event type',
      () => {
        const received = observer.received.filter((r) => r.verified).map((r) => JSON.parse(r.body));
        const types = new Set(received.map((b: { type: string }) => b.type));
        return ALL_TYPES.every((t) => types.has(t)) ? received : undefined;
      },
      30_000,
    );

    const catalogue = ok(await call('GET', '/v1/webhook-event-types', { baseUrl })).items as {
      type: string;
      schema: Record<string, unknown>;
    }[];
    const document = await (await fetch(`${baseUrl}/v1/openapi.json`)).json();
    const againstCatalogue = eventSchemaValidator();
    const againstDocument = openApiValidator(document);
    for (const body of bodies) {
      const entry = catalogue.find((e) => e.type === body.type);
      if (body.type !== TEST_EVENT_TYPE) {
        expect(entry, body.type).toBeDefined();
        expect(againstCatalogue(entry!.schema, body), body.type).toEqual([]);
      }
      expect(againstDocument(body.type, body), body.type).toEqual([]);
    }
    // What the bodies are about, beyond their shape.
    const one = (type: string) => bodies.find((b: { type: string }) => b.type === type);
    expect(one('post.mention')).toMatchObject({ profile_id: alice.id, data: { profile: { id: bob.id } } });
    expect(one('webhook.test')).toMatchObject({ profile_id: alice.id });
    expect(one('webhook_endpoint.disabled')).toMatchObject({
      profile_id: null,
      data: { webhook_endpoint: { name: 'gone', status: 'disabled', disabled_reason: 'gone' } },
    });
    expect(one('webhook_delivery.exhausted')).toMatchObject({
      profile_id: null,
      data: { webhook_delivery: { event_type: 'message.created', attempt_count: 10, last_status_code: 500 } },
    });
  }, 90_000);
});
