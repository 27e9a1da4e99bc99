import { extractMentions } from '../../shared/domain/mentions.js';
import { quotedPostNotFound } from '../../shared/domain/posts.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentPostWithProfile } from '../../shared/http/present/posts.js';
import { socialEvents } from '../../shared/http/present/social-events.js';
import { profilesByUsername } from '../../shared/store/mentions.js';
import { getPost, likedPosts, updatePost } from '../../shared/store/posts.js';
import { routes } from '../../shared/http/contract/routes/posts.js';
import { authoredPost } from '../../shared/auth/post-author.js';
import { refuseIfBlocked } from '../../shared/safety/checks.js';

/**
 * Edits the body and/or publishes a draft. Publishing sends the mention and reply events (no
 * mention of a profile across a block); a draft reply or quote is not published across a block
 * with the author it answers or quotes.
 */
export const handler = httpHandler(routes.updatePost, async ({ params, body, auth, now, viewer }) => {
  const author = auth.actingProfile;
  const before = await authoredPost(params.post_id, author.id, 'edit');
  const at = now.toISOString();
  const publishAt = body.status === 'published' && before.status === 'draft' ? at : undefined;
  // A quote is published only of a post that still is (its count is folded later, unconditioned).
  if (publishAt && before.quoted_post_id && (await getPost(before.quoted_post_id, true))?.status !== 'published')
    throw quotedPostNotFound();
  const events = [];
  if (publishAt) {
    for (const other of [before.reply_to_profile_id, before.quoted_profile_id])
      if (other) refuseIfBlocked(viewer, other);
    const published = {
      ...before,
      body: body.body ?? before.body,
      status: 'published' as const,
      published_at: publishAt,
      updated_at: at,
    };
    events.push(
      ...socialEvents.postPublished(
        published,
        author,
        (await profilesByUsername(extractMentions(published.body))).filter((m) => !viewer.isBlockedWith(m.id)),
      ),
    );
  }
  const [post, liked] = await Promise.all([
    updatePost(before, { body: body.body, publishAt, author }, at, events),
    likedPosts([before.id], author.id),
  ]);
  return presentPostWithProfile(post, author, liked.has(post.id));
});
