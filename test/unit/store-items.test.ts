import { describe, expect, it } from 'vitest';
import { newPost } from '../../shared/domain/posts.js';
import { newSession } from '../../shared/domain/entities.js';
import { entities } from '../../shared/store/entities.js';
import { itemOf, recordOf } from '../../shared/store/items.js';
import { keys } from '../../shared/store/keys.js';
import { presentPost } from '../../shared/http/present/posts.js';
import { presentWebhooks } from '../../shared/http/present/webhooks.js';
import { bySession } from '../support/disclosure.js';

const now = new Date('2026-11-22T10:00:00.000Z');
const author = { id: '11111111-1111-4111-8111-111111111111', workspace_id: '22222222-2222-4222-8222-222222222222' };

describe('entity items', () => {
  it("a published post carries its key, its listing index and its entity tag; a draft is listed only among its author's drafts", () => {
    const post = newPost(now, author, { body: 'hello', images: [], status: 'published' }, bySession);
    expect(itemOf(entities.post, post)).toMatchObject({
      ...keys.post(post.id),
      gsi1pk: keys.profilePosts(author.id),
      gsi1sk: `${now.toISOString()}#${post.id}`,
      entity: 'post',
      body: 'hello',
    });
    const draft = newPost(now, author, { body: 'later', images: [], status: 'draft' }, bySession);
    expect(itemOf(entities.post, draft)).toMatchObject({
      gsi1pk: keys.profileDrafts(author.id),
      gsi1sk: `${now.toISOString()}#${draft.id}`,
    });
    expect(itemOf(entities.post, post).gsi1pk).not.toBe(keys.profileDrafts(author.id));
  });

  it('a published quote is also listed under the quoted post; a draft quote nowhere', () => {
    const quoted = newPost(now, author, { body: 'original', images: [], status: 'published' }, bySession);
    const quote = newPost(now, author, { body: 'quote', images: [], status: 'published' }, bySession, { quoted });
    expect(quote).toMatchObject({ kind: 'post', quoted_post_id: quoted.id, reply_to_post_id: null });
    expect(itemOf(entities.post, quote)).toMatchObject({
      gsi1pk: keys.profilePosts(author.id),
      gsi2pk: keys.postQuotes(quoted.id),
      gsi2sk: `${now.toISOString()}#${quote.id}`,
    });
    expect(itemOf(entities.post, quoted)).not.toHaveProperty('gsi2pk');
    const draft = newPost(now, author, { body: 'later', images: [], status: 'draft' }, bySession, { quoted });
    expect(itemOf(entities.post, draft)).not.toHaveProperty('gsi2pk');
  });

  it('turns an item back into exactly the record it was built from', () => {
    const session = newSession(now, {
      id: 's1',
      user_id: 'u1',
      secret_hash: 'h',
      method: 'password',
      second_factor: null,
      client: { user_agent: 'test', ip_prefix: '192.0.2.0/24' },
    });
    const item = itemOf(entities.session, session);
    expect(item.expires_at_epoch).toBe(Math.ceil(Date.parse(session.expires_at) / 1000));
    expect(recordOf(entities.session, item)).toEqual(session);
  });

  it('refuses an item of another entity instead of casting it', () => {
    const post = newPost(now, author, { body: 'hello', images: [], status: 'published' }, bySession);
    expect(() => recordOf(entities.comment, itemOf(entities.post, post))).toThrow(
      /Expected a comment item, found post/,
    );
  });
});

describe('presenters', () => {
  it('send only the fields the response schema declares, in its order', () => {
    const post = newPost(now, author, { body: 'x'.repeat(300), images: [], status: 'published' }, bySession);
    const body = presentPost(post, true);
    expect(body).not.toHaveProperty('author_workspace_id');
    expect(body).not.toHaveProperty('reply_to_profile_id');
    expect(body).not.toHaveProperty('quoted_profile_id');
    expect(body).toHaveProperty('quoted_post_id', null);
    expect(body).toMatchObject({ body_truncated: true, image_count: 0, viewer_reaction: 'like' });
    expect(Object.keys(body).slice(0, 3)).toEqual(['id', 'profile_id', 'kind']);
  });

  it('never send a webhook secret', () => {
    const endpoint = {
      id: 'e1',
      workspace_id: 'w1',
      name: 'n',
      url: 'https://example.com',
      event_types: [],
      profile_ids: [],
      status: 'active' as const,
      secret: 'whsec_current',
      previous_secret: 'whsec_old',
      previous_secret_expires_at: null,
      disabled_at: null,
      disabled_reason: null,
      rate_limit_per_second: null,
      revoked_at: null,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    };
    expect(JSON.stringify(presentWebhooks.endpoint(endpoint, new Map()))).not.toContain('whsec_');
  });
});
