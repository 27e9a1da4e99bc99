import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { newId } from '../../shared/domain/ids.js';
import { db, tableName } from '../../shared/store/client.js';
import { keys } from '../../shared/store/keys.js';
import {
  acquireSendLease,
  LEASES,
  ONE_ITEM_MAX_IN_FLIGHT,
  releaseSendLease,
  type SendLease,
} from '../../shared/store/webhook-send-slots.js';

// Above ONE_ITEM_MAX_IN_FLIGHT: the endpoint's places and the claims on the endpoint's item.
const limits = { perEndpoint: 2, perWorkspace: 13 };
/** Places of the workspace taken on other endpoints, so that three more fill it. */
const FILLER = limits.perWorkspace - 3;
const later = (now: Date) => new Date(now.getTime() + 60_000);
const read = async (key: { pk: string; sk: string }) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item ?? {};
/** The workspace's item: its set of places. */
const item = (ws: string) => read(keys.webhookWorkspaceSending(ws));
/** An endpoint's item: its set of places and the claims of its attempts in flight. */
const onEndpoint = (endpoint: string) => read(keys.webhookEndpointSending(endpoint));
const placesOn = (held: Record<string, unknown>) => (held[LEASES] as Set<Uint8Array> | undefined)?.size ?? 0;

describe("in-flight leases above ONE_ITEM_MAX_IN_FLIGHT (a place on the endpoint's item, with the claim, and one on the workspace's)", () => {
  it('the limit chosen is above the one-item layout', () => {
    expect(limits.perWorkspace).toBeGreaterThan(ONE_ITEM_MAX_IN_FLIGHT);
  });

  it('holds at most perEndpoint per endpoint and perWorkspace per workspace, and frees a place when given back', async () => {
    const ws = newId();
    const [a, b] = [newId(), newId()];
    const now = new Date();
    const take = (endpoint: string) => acquireSendLease(ws, endpoint, now, later(now), limits);
    for (let i = 0; i < FILLER; i++) expect((await take(newId())).ok).toBe(true);
    const first = await take(a);
    expect(first.ok).toBe(true);
    expect((await take(a)).ok).toBe(true);
    expect(await take(a)).toEqual({ ok: false, full: 'endpoint' });
    expect((await take(b)).ok).toBe(true);
    expect(await take(b)).toEqual({ ok: false, full: 'workspace' });
    await releaseSendLease((first as { lease: SendLease }).lease);
    expect((await take(b)).ok).toBe(true);
    expect(placesOn(await item(ws))).toBe(FILLER + 3);
    expect(placesOn(await onEndpoint(a))).toBe(1);
    // The refusal by the full workspace gave the endpoint's place back.
    expect(placesOn(await onEndpoint(b))).toBe(2);
  });

  it('drops leases left behind by a sender that died, once they expire, on the next refusal', async () => {
    const ws = newId();
    const endpoint = newId();
    const then = new Date(Date.now() - 120_000);
    for (let i = 0; i < 2; i++)
      expect((await acquireSendLease(ws, endpoint, then, new Date(then.getTime() + 60_000), limits)).ok).toBe(true);
    const now = new Date();
    expect((await acquireSendLease(ws, endpoint, now, later(now), limits)).ok).toBe(true);
    expect(placesOn(await onEndpoint(endpoint))).toBe(1);
    // The workspace was not full: its expired places wait for its own next refusal.
    expect(placesOn(await item(ws))).toBe(3);
  });

  it('removes both sets once the last lease is given back', async () => {
    const ws = newId();
    const endpoint = newId();
    const now = new Date();
    const taken = await acquireSendLease(ws, endpoint, now, later(now), limits);
    await releaseSendLease((taken as { lease: SendLease }).lease);
    expect(await onEndpoint(endpoint)).not.toHaveProperty(LEASES);
    expect(await item(ws)).not.toHaveProperty(LEASES);
  });

  it("keeps the workspace's item under 1 KB (one write unit) with 100 attempts in flight to 100 endpoints", async () => {
    const ws = newId();
    const now = new Date();
    for (let i = 0; i < 100; i++)
      expect(
        (
          await acquireSendLease(
            ws,
            newId(),
            now,
            later(now),
            { perEndpoint: 4, perWorkspace: 100 },
            {
              deliveryId: newId(),
              attempt: 1,
            },
          )
        ).ok,
      ).toBe(true);
    const held = await item(ws);
    expect(placesOn(held)).toBe(100);
    const bytes = Object.entries(held).reduce(
      (sum, [name, value]) =>
        sum +
        name.length +
        (value instanceof Set
          ? [...(value as Set<Uint8Array>)].reduce((n, token) => n + token.byteLength, 0)
          : String(value).length),
      0,
    );
    expect(bytes).toBeLessThan(1024);
  });
});
