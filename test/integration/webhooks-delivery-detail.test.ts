/**
 * The delivery detail read (GET .../webhook-deliveries/{delivery_id}) in-process against DynamoDB
 * Local: what it answers, the body once the event item is gone as TTL would remove it, and what it
 * costs in DynamoDB requests and round trips.
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../functions/webhooks/get-webhook-delivery.js';
import { newId } from '../../shared/domain/ids.js';
import { issueToken } from '../../shared/domain/secret-tokens.js';
import { newWebhookEndpoint, type WebhookEvent } from '../../shared/domain/webhooks.js';
import { db, tableName } from '../../shared/store/client.js';
import { entities } from '../../shared/store/entities.js';
import { putItem } from '../../shared/store/items.js';
import { keys } from '../../shared/store/keys.js';
import { putSession } from '../../shared/store/sessions.js';
import { claimDelivery, completeAttempt, createDelivery } from '../../shared/store/webhook-deliveries.js';
import { putEndpoint } from '../../shared/store/webhook-endpoints.js';
import { createWorkspace } from '../../shared/store/workspaces.js';
import { webhookBody } from '../../shared/webhooks/body.js';
import { newDelivery } from '../../shared/webhooks/fan-out.js';
import { recordDynamoDbCalls, sequentialRoundTrips } from '../support/dynamodb-calls.js';
import { apiEvent, invoke } from '../support/events.js';

let recorder: ReturnType<typeof recordDynamoDbCalls>;
beforeAll(() => {
  recorder = recordDynamoDbCalls(db());
});
beforeEach(() => recorder.reset());

/** An owner's session, an endpoint, an event with nested data, and its delivery after one failed attempt. */
async function seed(role: 'owner' | 'member' = 'owner') {
  const at = new Date().toISOString();
  const userId = newId();
  const workspaceId = newId();
  await createWorkspace(
    { id: workspaceId, name: 'Detail', created_at: at },
    {
      workspace_id: workspaceId,
      workspace_name: 'Detail',
      user_id: userId,
      email: 'o@example.com',
      name: 'O',
      role,
      created_at: at,
    },
  );
  const sessionId = newId();
  const { token, secretHash } = issueToken('st', sessionId);
  await putSession({
    id: sessionId,
    user_id: userId,
    secret_hash: secretHash,
    created_at: at,
    expires_at: new Date(Date.now() + 3_600_000).toISOString(),
    last_used_at: at,
    user_agent: null,
    ip_prefix: null,
    method: 'password',
    second_factor: null,
  });
  const endpoint = newWebhookEndpoint(new Date(), workspaceId, {
    name: 'Detail receiver',
    url: 'https://example.com/hooks',
    event_types: ['profile.followed'],
    profile_ids: [newId()],
  });
  await putEndpoint(endpoint);
  // Not one of the endpoint's profiles: the shared local runtime's fan-out makes no delivery of it.
  const event: WebhookEvent = {
    id: newId(),
    type: 'profile.followed',
    profile_id: newId(),
    workspace_id: workspaceId,
    created_at: at,
    data: { zeta: { b: 2, a: [{ y: 1, x: 'é' }] }, alpha: 'first' },
  };
  await putItem(entities.event, event);
  const delivery = newDelivery(event, endpoint, at);
  await createDelivery(delivery);
  const claimed = (await claimDelivery(delivery, 1, at))!;
  const done = new Date().toISOString();
  await completeAttempt(
    claimed,
    {
      delivery_id: delivery.id,
      number: 1,
      started_at: at,
      duration_ms: 4,
      status_code: 500,
      error: 'HTTP 500',
      response_body: 'no',
    },
    { status: 'pending', nextAttemptAt: done, deliveredAt: null },
    done,
  );
  return { token, workspaceId, endpoint, event, delivery };
}

const read = (token: string, workspaceId: string, deliveryId: string) =>
  invoke(
    handler,
    apiEvent({
      method: 'GET',
      pathParameters: { workspace_id: workspaceId, delivery_id: deliveryId },
      headers: { authorization: `Bearer ${token}` },
    }),
  );

describe('the delivery detail read', () => {
  it('answers the delivery, its attempts and the exact body the sender signs', async () => {
    const { token, workspaceId, endpoint, event, delivery } = await seed();
    const { status, body } = await read(token, workspaceId, delivery.id);
    expect(status).toBe(200);
    expect(body.data.delivery).toMatchObject({
      id: delivery.id,
      webhook_endpoint_name: endpoint.name,
      status: 'pending',
      attempt_count: 1,
    });
    expect(body.data.attempts.map((a: { number: number }) => a.number)).toEqual([1]);
    expect(body.data.payload).toBe(webhookBody(event));
    expect(body.data.payload).toContain('"data":{"alpha":"first","zeta":{"a":[{"x":"é","y":1}],"b":2}}');
  });

  it('answers payload null once the event item is gone (as DynamoDB TTL removes it)', async () => {
    const { token, workspaceId, event, delivery } = await seed();
    await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.event(event.id) }));
    const { status, body } = await read(token, workspaceId, delivery.id);
    expect(status).toBe(200);
    expect(body.data.delivery.id).toBe(delivery.id);
    expect(body.data.attempts).toHaveLength(1);
    expect(body.data.payload).toBeNull();
  });

  it('answers 404 for a delivery of another workspace, and 403 to a member, without the body', async () => {
    const mine = await seed();
    const other = await seed();
    const foreign = await read(mine.token, mine.workspaceId, other.delivery.id);
    expect(foreign).toMatchObject({ status: 404, body: { error_code: 'not_found' } });
    expect(JSON.stringify(foreign.body)).not.toContain(other.event.id);
    const member = await seed('member');
    const refused = await read(member.token, member.workspaceId, member.delivery.id);
    expect(refused).toMatchObject({ status: 403, body: { error_code: 'forbidden' } });
    expect(JSON.stringify(refused.body)).not.toContain(member.event.id);
  });

  it('reads nothing ahead for a request without a credential: 401', async () => {
    const { workspaceId, delivery } = await seed();
    recorder.reset();
    const anonymous = await invoke(
      handler,
      apiEvent({ method: 'GET', pathParameters: { workspace_id: workspaceId, delivery_id: delivery.id } }),
    );
    expect(anonymous).toMatchObject({ status: 401, body: { error_code: 'unauthorized' } });
    expect(recorder.calls.filter((c) => c.command !== 'UpdateItem')).toEqual([]);
  });

  it('costs two round trips: the credential beside the delivery partition, then membership, endpoint and event in one batch', async () => {
    const { token, workspaceId, delivery } = await seed();
    recorder.reset();
    expect((await read(token, workspaceId, delivery.id)).body.data.payload).toEqual(expect.any(String));
    // The rate-limit window's UpdateItem runs beside the reads and is not one.
    const reads = recorder.calls.filter((c) => c.command !== 'UpdateItem').map((c) => c.command);
    expect(reads.sort()).toEqual(['BatchGetItem', 'BatchGetItem', 'Query']);
    expect(sequentialRoundTrips(recorder.calls)).toBe(2);
  });
});
