/** The thread's pure rules: which ancestors a reply keeps, and how the chain shows to a caller. */
import { describe, expect, it } from 'vitest';
import type { ProfileRecord } from '../../shared/domain/entities.js';
import { MAX_THREAD_ANCESTORS, newPost, type PostRecord } from '../../shared/domain/posts.js';
import { NO_VIEWER_FILTER, viewerFilterOf } from '../../shared/domain/safety.js';
import { ancestorSlots, visibleReplies } from '../../shared/domain/threads.js';
import { bySession } from '../support/disclosure.js';

const author = { id: 'a1', workspace_id: 'w1' };
const card = { id: 'a1' } as ProfileRecord;
const now = new Date('2026-11-25T12:00:00.000Z');
const published = (parent?: PostRecord) =>
  newPost(now, author, { body: 'x', images: [], status: 'published' }, bySession, { parent });

describe('a reply’s ancestors', () => {
  it('are root first up to the parent, and only the nearest 20 of a deeper chain', () => {
    const chain = [published()];
    for (let i = 0; i < 30; i++) chain.push(published(chain.at(-1)));
    expect(chain[0]!.ancestor_ids).toEqual([]);
    expect(chain[3]!.ancestor_ids).toEqual(chain.slice(0, 3).map((p) => p.id));
    expect(chain[30]!.ancestor_ids).toHaveLength(MAX_THREAD_ANCESTORS);
    expect(chain[30]!.ancestor_ids).toEqual(chain.slice(10, 30).map((p) => p.id));
    // The root stays named even when the chain is cut.
    expect(chain[30]!.root_post_id).toBe(chain[0]!.id);
  });
});

describe('the chain as a caller sees it', () => {
  const root = published();
  const draft = { ...published(root), status: 'draft' as const };
  const removed = { ...published(root), status: 'removed' as const };
  const hidden = { ...published(root), profile_id: 'blocked' };
  const found = new Map([root, draft, removed, hidden].map((post) => [post.id, { post, author: card }]));

  it('keeps each place: a draft, a removed, a missing or a hidden ancestor is unavailable, by id', () => {
    const ids = [root.id, draft.id, removed.id, 'missing', hidden.id];
    const filter = viewerFilterOf({ blocks: new Set(), blockedBy: new Set(), mutes: new Set(['blocked']) });
    expect(ancestorSlots(ids, found, filter)).toEqual([
      { post: root, author: card, available: true },
      { available: false, post_id: draft.id },
      { available: false, post_id: removed.id },
      { available: false, post_id: 'missing' },
      { available: false, post_id: hidden.id },
    ]);
    expect(ancestorSlots([hidden.id], found, NO_VIEWER_FILTER)).toEqual([
      { post: hidden, author: card, available: true },
    ]);
  });

  it('leaves hidden replies out', () => {
    const replies = [root, hidden].map((post) => ({ post, author: card }));
    expect(
      visibleReplies(replies, viewerFilterOf({ blocks: new Set(['blocked']), blockedBy: new Set(), mutes: new Set() })),
    ).toEqual([replies[0]]);
    expect(visibleReplies(replies, NO_VIEWER_FILTER)).toEqual(replies);
  });
});
