/** The home feed's pure rules: which writes publish into feeds, the cursor, the 800-entry cap, and the merge of a page. */
import { describe, expect, it } from 'vitest';
import {
  decodeFeedCursor,
  encodeFeedCursor,
  FEED_MAX_ENTRIES,
  feedWindowStart,
  mergeFeedPage,
  pageSize,
  publishesIntoFeeds,
  type FeedCandidate,
  type PublishedPostImage,
} from '../../shared/domain/feed.js';
import { AppError } from '../../shared/errors.js';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
/** A candidate published at minute `minute` of one day; positions order by it. */
const at = (minute: number, source: FeedCandidate['source'] = 'inbox', post = minute): FeedCandidate => {
  const published_at = new Date(Date.UTC(2026, 10, 24, 0, minute)).toISOString();
  return { position: `${published_at}#${id(post)}`, post_id: id(post), published_at, source };
};
const ids = (items: FeedCandidate[]) => items.map((c) => Number(c.post_id.slice(-12)));

describe('which post writes publish into feeds', () => {
  const created = '2026-11-24T10:00:00.000Z';
  const post: PublishedPostImage = {
    id: id(1),
    profile_id: id(2),
    kind: 'post',
    status: 'published',
    published_at: created,
    created_at: created,
    updated_at: created,
  };

  it('a post created published, and a draft when it is published', () => {
    expect(publishesIntoFeeds('INSERT', post)).toBe(true);
    const later = '2026-11-24T11:00:00.000Z';
    expect(publishesIntoFeeds('MODIFY', { ...post, published_at: later, updated_at: later })).toBe(true);
  });

  it('not a reply, a draft, a removal, an edit, or a counter change of a post created published', () => {
    expect(publishesIntoFeeds('INSERT', { ...post, kind: 'reply' })).toBe(false);
    expect(publishesIntoFeeds('INSERT', { ...post, status: 'draft', published_at: null })).toBe(false);
    expect(publishesIntoFeeds('MODIFY', { ...post, status: 'removed', updated_at: '2026-11-24T12:00:00.000Z' })).toBe(
      false,
    );
    expect(publishesIntoFeeds('MODIFY', { ...post, updated_at: '2026-11-24T12:00:00.000Z' })).toBe(false);
    expect(publishesIntoFeeds('MODIFY', post)).toBe(false);
    expect(publishesIntoFeeds('REMOVE', post)).toBe(false);
  });
});

describe('the feed cursor', () => {
  it('round-trips a position and the entries served, and starts at the newest without one', () => {
    const position = at(5).position;
    expect(decodeFeedCursor(encodeFeedCursor({ before: position, served: 40 }))).toEqual({
      before: position,
      served: 40,
    });
    expect(decodeFeedCursor(undefined)).toEqual({ before: undefined, served: 0 });
  });

  it('refuses anything it did not hand out with invalid_request', () => {
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    for (const bad of [
      'not base64 json',
      encode([1, 2]),
      encode({ b: 'FEED#someone-else', n: 0 }),
      encode({ b: at(1).position, n: -1 }),
      encode({ b: at(1).position, n: 801 }),
      encode({ b: at(1).position, n: 1.5 }),
      encode({ b: at(1).position }),
      encode({ b: at(1).position, n: 0, x: 1 }),
      encode({ b: at(1).position, n: '3' }),
    ]) {
      expect(() => decodeFeedCursor(bad), bad).toThrow(AppError);
      try {
        decodeFeedCursor(bad);
      } catch (error) {
        expect((error as AppError).code).toBe('invalid_request');
      }
    }
  });
});

describe('the 800-entry cap', () => {
  it('shortens the page that reaches it and answers nothing past it', () => {
    expect(FEED_MAX_ENTRIES).toBe(800);
    expect(pageSize(20, 0)).toBe(20);
    expect(pageSize(100, 780)).toBe(20);
    expect(pageSize(20, 800)).toBe(0);
  });

  it('keeps 30 days', () => {
    expect(feedWindowStart(new Date('2026-11-30T00:00:00.000Z'))).toBe('2026-10-31T00:00:00.000Z');
  });
});

describe('merging a page from the inbox and the read-time authors', () => {
  it('takes the newest across sources, each post once (the inbox entry first), and continues below the last', () => {
    const inbox = { items: [at(9), at(7), at(4)], coveredTo: at(4).position };
    const author = { items: [at(8, 'author'), at(7, 'author'), at(2, 'author')], coveredTo: undefined };
    const page = mergeFeedPage([inbox, author], 3);
    expect(ids(page.items)).toEqual([9, 8, 7]);
    expect(page.items[2]!.source).toBe('inbox');
    expect(page.next).toBe(at(7).position);
  });

  it('never answers below what a source with more has covered: a shorter page that continues from there', () => {
    // The author's filter (replies) left one post of the three it read; it has more below minute 6.
    const inbox = { items: [at(9), at(5), at(3)], coveredTo: undefined };
    const author = { items: [at(8, 'author')], coveredTo: at(6).position };
    const page = mergeFeedPage([inbox, author], 3);
    expect(ids(page.items)).toEqual([9, 8]);
    expect(page.next).toBe(at(6).position);
  });

  it('ends when every source is exhausted, also on a full page', () => {
    const full = mergeFeedPage([{ items: [at(3), at(2)], coveredTo: undefined }], 2);
    expect(ids(full.items)).toEqual([3, 2]);
    expect(full.next).toBeUndefined();
    expect(mergeFeedPage([{ items: [], coveredTo: undefined }], 20)).toEqual({ items: [], next: undefined });
    const more = mergeFeedPage([{ items: [at(3), at(2)], coveredTo: at(2).position }], 2);
    expect(more.next).toBe(at(2).position);
  });

  it('answers nothing for a page of size 0 (the cap reached)', () => {
    expect(mergeFeedPage([{ items: [at(1)], coveredTo: at(1).position }], 0)).toEqual({ items: [], next: undefined });
  });
});
