import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { newId, nowIso } from '../../shared/domain/ids.js';
import { newBlock, newMute } from '../../shared/domain/safety.js';
import { issueToken } from '../../shared/domain/secret-tokens.js';
import { newFollow } from '../../shared/domain/social.js';
import { defineRoute } from '../../shared/http/contract/route.js';
import { httpHandler } from '../../shared/http/handler.js';
import { putApiKey } from '../../shared/store/api-keys.js';
import { follow, getFollowCounts, listFollowing } from '../../shared/store/follows.js';
import { block, listBlocks, listMutes, loadSafetySets, mute, unblock, unmute } from '../../shared/store/safety.js';
import { apiEvent, invoke } from '../support/events.js';
import { storedProfile } from '../support/stored.js';

const followsOf = async (profileId: string) =>
  (await listFollowing(profileId, { limit: 10 })).items.map((f) => f.followed_profile_id);

describe('blocks and mutes in the store', () => {
  it('ends the follows both ways with the block, and reads both sides from one partition each', async () => {
    const ws = newId();
    const [a, b] = await Promise.all([storedProfile(ws, { type: 'human' }), storedProfile(ws, { type: 'human' })]);
    await follow(newFollow(new Date(), { id: a.id, type: 'human' }, b.id), []);
    await follow(newFollow(new Date(), { id: b.id, type: 'human' }, a.id), []);

    expect(await block(newBlock(new Date(), a.id, b.id))).toBe(true);

    expect(await followsOf(a.id)).toEqual([]);
    expect(await followsOf(b.id)).toEqual([]);
    expect((await getFollowCounts(a.id)).following_count).toBe(0);
    expect((await getFollowCounts(b.id)).following_count).toBe(0);
    const [setsA, setsB] = await Promise.all([loadSafetySets(a.id), loadSafetySets(b.id)]);
    expect([...setsA.blocks]).toEqual([b.id]);
    expect([...setsA.blockedBy]).toEqual([]);
    expect([...setsB.blockedBy]).toEqual([a.id]);
    expect([...setsB.blocks]).toEqual([]);
  });

  it('answers a repeated block as not new, leaves its first time, and unblocks both items', async () => {
    const ws = newId();
    const [a, b] = await Promise.all([storedProfile(ws, { type: 'human' }), storedProfile(ws, { type: 'human' })]);
    const first = newBlock(new Date('2026-01-01T00:00:00.000Z'), a.id, b.id);
    expect(await block(first)).toBe(true);
    expect(await block(newBlock(new Date(), a.id, b.id))).toBe(false);
    const listed = await listBlocks(a.id, { limit: 10 });
    expect(listed.items.map((i) => [i.profile.id, i.created_at])).toEqual([[b.id, first.created_at]]);

    expect(await unblock(a.id, b.id)).toBe(true);
    expect(await unblock(a.id, b.id)).toBe(false);
    const [setsA, setsB] = await Promise.all([loadSafetySets(a.id), loadSafetySets(b.id)]);
    expect(setsA.blocks.size + setsB.blockedBy.size).toBe(0);
  });

  it('keeps mutes on the muter side only', async () => {
    const ws = newId();
    const [a, b] = await Promise.all([storedProfile(ws, { type: 'human' }), storedProfile(ws, { type: 'human' })]);
    expect(await mute(newMute(new Date(), a.id, b.id))).toBe(true);
    expect(await mute(newMute(new Date(), a.id, b.id))).toBe(false);
    expect([...(await loadSafetySets(a.id)).mutes]).toEqual([b.id]);
    expect((await loadSafetySets(b.id)).mutes.size).toBe(0);
    expect((await listMutes(a.id, { limit: 10 })).items.map((i) => i.profile.id)).toEqual([b.id]);
    expect(await unmute(a.id, b.id)).toBe(true);
    expect(await unmute(a.id, b.id)).toBe(false);
  });
});

const viewRoute = defineRoute({
  method: 'GET',
  path: '/test/view',
  handler: 'test/view',
  tag: 'Test',
  summary: 'view',
  auth: 'none',
  actingProfile: { required: false },
  status: 200,
  response: z.unknown(),
  errors: [],
});

describe('the viewer filter of a request', () => {
  it('is the acting profile’s blocks (both ways) and mutes, and nothing for an anonymous read', async () => {
    const ws = newId();
    const [me, blocked, blocker, muted, other] = await Promise.all([
      storedProfile(ws, { type: 'human' }),
      storedProfile(ws, { type: 'human' }),
      storedProfile(ws, { type: 'human' }),
      storedProfile(ws, { type: 'human' }),
      storedProfile(ws, { type: 'human' }),
    ]);
    await block(newBlock(new Date(), me.id, blocked.id));
    await block(newBlock(new Date(), blocker.id, me.id));
    await mute(newMute(new Date(), me.id, muted.id));
    const keyId = newId();
    const { token, secretHash } = issueToken('sk', keyId);
    await putApiKey({
      id: keyId,
      workspace_id: ws,
      name: 'k',
      scopes: ['all:all'],
      profile_ids: [me.id],
      prefix: token.slice(0, 11),
      secret_hash: secretHash,
      created_at: nowIso(),
      revoked_at: null,
    });
    const ids = [blocked.id, blocker.id, muted.id, other.id];
    const view = httpHandler(viewRoute, ({ viewer }) => ({
      hidden: ids.map((id) => viewer.hidesAuthor(id)),
      blocked: ids.map((id) => viewer.isBlockedWith(id)),
    }));

    const acting = await invoke(
      view,
      apiEvent({ method: 'GET', headers: { authorization: `Bearer ${token}`, 'x-profile-id': me.id } }),
    );
    expect(acting.body.data).toEqual({ hidden: [true, true, true, false], blocked: [true, true, false, false] });

    const anonymous = await invoke(view, apiEvent({ method: 'GET', headers: { 'x-profile-id': me.id } }));
    expect(anonymous.body.data).toEqual({
      hidden: [false, false, false, false],
      blocked: [false, false, false, false],
    });
  });
});
