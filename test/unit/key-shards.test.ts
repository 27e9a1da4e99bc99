import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { KEY_SHARDS, keyParts, keyShardOf, keys } from '../../shared/store/keys.js';

describe('key shards of likes and follows', () => {
  it("spread one target's likers evenly: no key takes much more than 1/KEY_SHARDS of 100,000 profiles", () => {
    const counts = new Array<number>(KEY_SHARDS).fill(0);
    const profiles = 100_000;
    for (let i = 0; i < profiles; i++) counts[keyShardOf(randomUUID())]! += 1;
    const mean = profiles / KEY_SHARDS;
    expect(Math.max(...counts) / profiles).toBeLessThan((mean * 1.1) / profiles);
    expect(Math.min(...counts)).toBeGreaterThan(mean * 0.9);
  });

  it('keep a profile in the same shard of every target, so its own reaction is one known key', () => {
    const profile = randomUUID();
    const [a, b] = [randomUUID(), randomUUID()];
    expect(keys.postReaction(a, profile).pk.split('#').at(-1)).toBe(keys.postReaction(b, profile).pk.split('#').at(-1));
    expect(keys.postReaction(a, profile)).toEqual(keys.postReaction(a, profile));
  });

  it('read back what a key names, and nothing from other keys', () => {
    const [post, comment, profile, other] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    expect(keyParts.reaction(keys.postReaction(post, profile))).toEqual({
      target: 'post',
      targetId: post,
      profileId: profile,
    });
    expect(keyParts.reaction(keys.commentReaction(comment, profile))).toEqual({
      target: 'comment',
      targetId: comment,
      profileId: profile,
    });
    expect(keyParts.follow(keys.follow(profile, other))).toEqual({ followerId: profile, followedId: other });
    expect(keyParts.quote(keys.quoteMark(post, other))).toEqual({ quotedId: post, quoteId: other });
    expect(keyParts.quote(keys.postReaction(post, profile))).toBeUndefined();
    expect(keyParts.reaction(keys.quoteMark(post, other))).toBeUndefined();
    for (const key of [keys.post(post), keys.comment(comment), keys.profile(profile), keys.followerCount(profile)]) {
      expect(keyParts.reaction(key)).toBeUndefined();
      expect(keyParts.follow(key)).toBeUndefined();
      expect(keyParts.quote(key)).toBeUndefined();
    }
    expect(keyParts.follow(keys.postReaction(post, profile))).toBeUndefined();
    expect(keyParts.reaction(keys.follow(profile, other))).toBeUndefined();
  });
});
