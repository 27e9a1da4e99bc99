/**
 * Logged events presented as every transport answers them (shared/live/present.ts) on DynamoDB
 * Local: a feed.post, logged as its post's id, answered as `{ post, profile }` from the post and the
 * author card it carries, in one BatchGetItem for the page; left out once its post is gone, removed
 * or a draft again, its author suspended, or its author blocked or muted by the reader; the
 * other events as they were logged.
 */
import { describe, expect, it } from 'vitest';
import { newProfile, type ProfileRecord } from '../../shared/domain/entities.js';
import { newId } from '../../shared/domain/ids.js';
import { viewerFilterOf, EMPTY_SAFETY_SETS } from '../../shared/domain/safety.js';
import type { LiveEvent } from '../../shared/domain/live-events.js';
import { newPost, type PostRecord } from '../../shared/domain/posts.js';
import { presentPostWithProfile } from '../../shared/http/present/posts.js';
import { presentEvents } from '../../shared/live/present.js';
import { db } from '../../shared/store/client.js';
import { createPost, removePost } from '../../shared/store/posts.js';
import { unique } from '../support/api.js';
import { bySession } from '../support/disclosure.js';
import { recordDynamoDbCalls } from '../support/dynamodb-calls.js';

const recorder = recordDynamoDbCalls(db());

const author = (fields: Partial<ProfileRecord> = {}): ProfileRecord => ({
  ...newProfile(new Date(), {
    workspace_id: newId(),
    username: unique('present').toLowerCase(),
    type: 'human',
    name: 'Live Author',
    call_name: 'Author',
  }),
  ...fields,
});

async function stored(by: ProfileRecord, status: 'published' | 'draft' = 'published'): Promise<PostRecord> {
  const post = newPost(new Date(), by, { body: `By ${by.username}`, images: [], status }, bySession);
  await createPost(post, by, [], []);
  return post;
}

let n = 0;
const logged = (profile_id: string, type: LiveEvent['type'], data: Record<string, unknown>): LiveEvent => ({
  id: String(++n).padStart(16, '0'),
  type,
  profile_id,
  created_at: new Date().toISOString(),
  data,
});
const feedPost = (reader: string, post: { id: string }) => logged(reader, 'feed.post', { post_id: post.id });

describe('presenting logged events', () => {
  it('answers a feed.post from its post and card, in one BatchGetItem for the page, and leaves out the gone and the hidden', async () => {
    const reader = newId();
    const [shownBy, mutedBy, blockedBy] = [author(), author(), author()];
    const suspended = author({ suspended_at: new Date().toISOString() });
    const shown = await stored(shownBy);
    const removed = await removePost(await stored(shownBy), new Date().toISOString());
    const [draft, ofMuted, ofBlocked, ofSuspended] = [
      await stored(shownBy, 'draft'),
      await stored(mutedBy),
      await stored(blockedBy),
      await stored(suspended),
    ];
    const notification = logged(reader, 'notification.created', { id: newId(), reason: 'follow', actors: [] });
    const events = [
      feedPost(reader, shown),
      notification,
      feedPost(reader, { id: newId() }),
      ...[removed, draft, ofMuted, ofBlocked, ofSuspended].map((post) => feedPost(reader, post)),
    ];
    const viewer = viewerFilterOf({
      ...EMPTY_SAFETY_SETS,
      blocks: new Set([blockedBy.id]),
      mutes: new Set([mutedBy.id]),
    });
    recorder.reset();
    const answered = await presentEvents(reader, events, viewer);
    expect(recorder.calls.map((c) => c.command)).toEqual(['BatchGetItem']);
    expect(answered).toEqual([{ ...events[0], data: presentPostWithProfile(shown, shownBy) }, notification]);
  });

  it("reads the profile's blocks and mutes itself when not given them, only for a page with a feed.post", async () => {
    const reader = newId();
    const notification = logged(reader, 'notification.created', { id: newId(), reason: 'follow', actors: [] });
    recorder.reset();
    expect(await presentEvents(reader, [notification])).toEqual([notification]);
    expect(recorder.calls).toEqual([]);

    const post = await stored(author());
    recorder.reset();
    expect(await presentEvents(reader, [feedPost(reader, post)])).toHaveLength(1);
    expect(recorder.calls.map((c) => c.command).sort()).toEqual(['BatchGetItem', 'Query']);
  });
});
