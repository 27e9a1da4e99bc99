/** New posts and comments are written whole: every field the presenters answer is on the item from the start. */
import { describe, expect, it } from 'vitest';
import { newComment, newPost } from '../../shared/domain/posts.js';
import { bySession } from '../support/disclosure.js';

const author = { id: 'a1', workspace_id: 'w1' };
const now = new Date('2026-11-26T12:00:00.000Z');

describe('a new post', () => {
  it('carries removed_by null, its reply policy (everyone unless chosen) and the hashtags of its body', () => {
    const post = newPost(
      now,
      author,
      { body: 'On #Rust and #go, #rust again.', images: [], status: 'published' },
      bySession,
    );
    expect(post).toMatchObject({ removed_by: null, reply_policy: 'everyone', hashtags: ['rust', 'go'] });
    const narrowed = newPost(
      now,
      author,
      { body: 'No tags.', images: [], status: 'draft', reply_policy: 'mentioned' },
      bySession,
    );
    expect(narrowed).toMatchObject({ removed_by: null, reply_policy: 'mentioned', hashtags: [] });
  });
});

describe('a new comment', () => {
  it('carries removed_by null', () => {
    const post = newPost(now, author, { body: 'x', images: [], status: 'published' }, bySession);
    expect(newComment(now, author, post, undefined, 'A comment.', bySession).removed_by).toBeNull();
  });
});
