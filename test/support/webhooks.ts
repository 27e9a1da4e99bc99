/** Helpers of the webhook tests: workspaces with profiles, endpoints, outbox events, waiting. */
import { randomUUID } from 'node:crypto';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll } from 'vitest';
import type { EventType } from '../../shared/domain/events.js';
import { db } from '../../shared/store/client.js';
import { outboxItem } from '../../shared/store/outbox.js';
import { webhookEventExamples } from '../../shared/http/contract/webhook-event-examples.js';
import { call, createProfile, signUp, unique, type SignedUp } from './api.js';
import { startLocalServer, type LocalServer } from '../../infra/local/server-process.js';
import { receiverPool } from './webhook-receiver.js';

export interface Workspace extends SignedUp {
  profiles: { id: string; username: string }[];
  baseUrl?: string;
}

/** A new user (owner of a personal workspace) with `profileCount` profiles in it. */
export async function workspaceWithProfiles(profileCount = 1, baseUrl?: string): Promise<Workspace> {
  if (baseUrl) {
    const email = `${unique('user')}@example.com`;
    const password = 'correct horse battery';
    const created = await call('POST', '/v1/users', { baseUrl, body: { email, password, name: 'Hook Owner' } });
    const session = await call('POST', '/v1/sessions', { baseUrl, body: { email, password } });
    const signed = { ...created.body.data, email, password, token: session.body.data.session.token } as SignedUp;
    const profiles = [];
    for (let i = 0; i < profileCount; i++) {
      const r = await call('POST', '/v1/profiles', {
        baseUrl,
        token: signed.token,
        body: { type: 'human', username: unique('p'), name: 'Pat', call_name: 'Pat' },
      });
      profiles.push(r.body.data);
    }
    return { ...signed, profiles, baseUrl };
  }
  const signed = await signUp('Hook Owner');
  const profiles = [];
  for (let i = 0; i < profileCount; i++) profiles.push(await createProfile(signed.token));
  return { ...signed, profiles };
}

export interface EndpointOptions {
  url: string;
  event_types?: string[];
  profile_ids?: string[];
  name?: string;
}

export async function createEndpoint(ws: Workspace, options: EndpointOptions) {
  const response = await call('POST', `/v1/workspaces/${ws.workspace.id}/webhook-endpoints`, {
    baseUrl: ws.baseUrl,
    token: ws.token,
    body: {
      name: options.name ?? 'Test receiver',
      url: options.url,
      event_types: options.event_types ?? ['profile.followed'],
      profile_ids: options.profile_ids ?? [ws.profiles[0]!.id],
    },
  });
  if (response.status !== 201) throw new Error(`endpoint creation failed: ${JSON.stringify(response.body)}`);
  return response.body.data as { webhook_endpoint: { id: string; url: string; status: string }; secret: string };
}

/**
 * Writes an outbox event directly, as a domain change would (one transaction). Its `data` is the
 * catalogue's example of its type unless given: the other consumers of the stream (notifications)
 * read it as a real event's.
 */
export async function emitEvent(
  ws: Workspace,
  options: { type?: EventType; profileId?: string; tableName?: string; data?: Record<string, unknown> } = {},
): Promise<string> {
  const type = options.type ?? 'profile.followed';
  const event = {
    id: randomUUID(),
    type,
    profile_id: options.profileId ?? ws.profiles[0]!.id,
    workspace_id: ws.workspace.id,
    created_at: new Date().toISOString(),
    data: options.data ?? webhookEventExamples[type].data,
  } as const;
  const item = outboxItem(event);
  if (options.tableName) item.Put!.TableName = options.tableName;
  await db().send(new TransactWriteCommand({ TransactItems: [item] }));
  return event.id;
}

/** Polls until `check` returns a value (not undefined), or fails after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}${last instanceof Error ? `: ${last.message}` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function activity(ws: Workspace) {
  const response = await call('GET', `/v1/workspaces/${ws.workspace.id}/webhook-deliveries`, {
    baseUrl: ws.baseUrl,
    token: ws.token,
  });
  if (response.status !== 200) throw new Error(`activity failed: ${JSON.stringify(response.body)}`);
  return response.body.data as { totals: Record<string, number | null>; items: Array<Record<string, any>> };
}

/**
 * The activity once its totals show `expected` (the totals lag the deliveries by one stream batch).
 * Totals counted twice never match: the wait times out.
 */
export async function activityWithTotals(ws: Workspace, expected: Record<string, number | null>, timeoutMs = 20_000) {
  return waitFor(
    `totals ${JSON.stringify(expected)}`,
    async () => {
      const page = await activity(ws);
      return Object.entries(expected).every(([name, value]) => page.totals[name] === value) ? page : undefined;
    },
    timeoutMs,
  );
}

export async function deliveryDetail(ws: Workspace, id: string) {
  const response = await call('GET', `/v1/workspaces/${ws.workspace.id}/webhook-deliveries/${id}`, {
    baseUrl: ws.baseUrl,
    token: ws.token,
  });
  if (response.status !== 200) throw new Error(`delivery read failed: ${JSON.stringify(response.body)}`);
  return response.body.data as {
    delivery: Record<string, any>;
    attempts: Array<Record<string, any>>;
    payload: string | null;
  };
}

/** Waits until the workspace's deliveries for `eventId` reach a final or wanted status. */
export async function waitForDelivery(ws: Workspace, eventId: string, status: string, timeoutMs = 20_000) {
  return waitFor(
    `delivery of ${eventId} to be ${status}`,
    async () => {
      const { items } = await activity(ws);
      return items.find((d) => d.webhook_event_id === eventId && d.status === status);
    },
    timeoutMs,
  );
}

/**
 * A local server of the test file's own (settings the shared one must not have), started before
 * its tests and stopped after them with the receivers the file started through `receiver`.
 */
export function dedicatedServer(env: Record<string, string>) {
  let server: LocalServer | undefined;
  const receivers = receiverPool();
  beforeAll(async () => {
    server = await startLocalServer(env);
  }, 60_000);
  afterAll(async () => {
    await receivers.closeAll();
    await server?.stop();
  });
  return {
    get baseUrl(): string {
      return server!.baseUrl;
    },
    receiver: receivers.start,
  };
}
