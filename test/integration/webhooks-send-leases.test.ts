import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { newId } from '../../shared/domain/ids.js';
import { db, tableName } from '../../shared/store/client.js';
import { keys } from '../../shared/store/keys.js';
import {
  acquireSendLease,
  claimAttribute,
  endpointAttribute,
  ONE_ITEM_MAX_IN_FLIGHT,
  releaseSendLease,
  type SendLease,
} from '../../shared/store/webhook-send-slots.js';

const limits = { perEndpoint: 2, perWorkspace: 3 };
const later = (now: Date) => new Date(now.getTime() + 60_000);
const read = async (key: { pk: string; sk: string }) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item ?? {};
const item = (ws: string) => read(keys.webhookWorkspaceSending(ws));

describe('in-flight leases at a workspace limit up to ONE_ITEM_MAX_IN_FLIGHT (one item per workspace, one write to take, one to give back)', () => {
  it('holds at most perEndpoint per endpoint and perWorkspace per workspace, and frees a place when given back', async () => {
    const ws = newId();
    const [a, b] = [newId(), newId()];
    const now = new Date();
    const take = (endpoint: string) => acquireSendLease(ws, endpoint, now, later(now), limits);
    const first = await take(a);
    expect(first.ok).toBe(true);
    expect((await take(a)).ok).toBe(true);
    expect(await take(a)).toEqual({ ok: false, full: 'endpoint' });
    expect((await take(b)).ok).toBe(true);
    expect(await take(b)).toEqual({ ok: false, full: 'workspace' });
    await releaseSendLease((first as { lease: SendLease }).lease);
    expect((await take(b)).ok).toBe(true);
    const held = await item(ws);
    expect((held.leases as Set<Uint8Array>).size).toBe(3);
    expect((held[endpointAttribute(a)] as Set<Uint8Array>).size).toBe(1);
    expect((held[endpointAttribute(b)] as Set<Uint8Array>).size).toBe(2);
  });

  it('drops leases left behind by a sender that died, once they expire, on the next refusal', async () => {
    const ws = newId();
    const endpoint = newId();
    const then = new Date(Date.now() - 120_000);
    for (let i = 0; i < 2; i++)
      expect((await acquireSendLease(ws, endpoint, then, new Date(then.getTime() + 60_000), limits)).ok).toBe(true);
    const now = new Date();
    expect((await acquireSendLease(ws, endpoint, now, later(now), limits)).ok).toBe(true);
    expect((await item(ws))[endpointAttribute(endpoint)]).toEqual(new Set([expect.any(Uint8Array)]));
  });

  it("removes an endpoint's set once its last lease is given back", async () => {
    const ws = newId();
    const endpoint = newId();
    const now = new Date();
    const taken = await acquireSendLease(ws, endpoint, now, later(now), limits);
    await releaseSendLease((taken as { lease: SendLease }).lease);
    const held = await item(ws);
    expect(held).not.toHaveProperty(endpointAttribute(endpoint));
    expect(held).not.toHaveProperty('leases');
  });

  it.each([
    { layout: 'on the workspace item', perWorkspace: 5, claimsOn: keys.webhookWorkspaceSending, deadLeft: 0 },
    // Above ONE_ITEM_MAX_IN_FLIGHT: on the endpoint's item; the workspace's item is not refused, so
    // the dead sender's place waits there for its next refusal.
    { layout: "on the endpoint's item", perWorkspace: 13, claimsOn: keys.webhookEndpointSending, deadLeft: 1 },
  ])(
    'a lease can carry the claim of an attempt ($layout): refused to a second sender while it lives, never blocking a later attempt, taken over once expired, given back with the lease',
    async ({ perWorkspace, claimsOn, deadLeft }) => {
      expect(perWorkspace > ONE_ITEM_MAX_IN_FLIGHT).toBe(deadLeft === 1);
      const ws = newId();
      const endpoint = newId();
      const delivery = newId();
      const claims = async () => read(claimsOn(claimsOn === keys.webhookWorkspaceSending ? ws : endpoint));
      const now = new Date();
      const take = (attempt: number, at = now) =>
        acquireSendLease(
          ws,
          endpoint,
          at,
          later(at),
          { perEndpoint: 5, perWorkspace },
          { deliveryId: delivery, attempt },
        );
      const first = await take(1);
      expect(first.ok).toBe(true);
      expect(await take(1)).toEqual({ ok: false, full: 'claimed' });
      expect((await claims())[claimAttribute(delivery)]).toMatch(/^0001\|/);
      // The outcome of attempt 1 was recorded but its claim never given back (the sender died after it).
      const second = await take(2);
      expect(second.ok).toBe(true);
      expect((await claims())[claimAttribute(delivery)]).toMatch(/^0002\|/);
      // Attempt 1's release finds its claim replaced: only its lease goes.
      await releaseSendLease((first as { lease: SendLease }).lease);
      expect((await claims())[claimAttribute(delivery)]).toMatch(/^0002\|/);
      expect(((await item(ws)).leases as Set<Uint8Array>).size).toBe(1);
      // A sender of attempt 2 that died: once its claim expires, another sender takes it over.
      const afterExpiry = new Date(now.getTime() + 120_000);
      const takenOver = await take(2, afterExpiry);
      expect(takenOver.ok).toBe(true);
      await releaseSendLease((takenOver as { lease: SendLease }).lease);
      expect(await claims()).not.toHaveProperty(claimAttribute(delivery));
      expect(((await item(ws)).leases as Set<Uint8Array> | undefined)?.size ?? 0).toBe(deadLeft);
    },
  );
});
