import { extractMentions } from '../../shared/domain/mentions.js';
import { quotedPostNotFound, replyParentNotFound } from '../../shared/domain/posts.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentPostWithProfile } from '../../shared/http/present/posts.js';
import { socialEvents } from '../../shared/http/present/social-events.js';
import { profilesByUsername } from '../../shared/store/mentions.js';
import { likedPosts, updatePost } from '../../shared/store/posts.js';
import { routes } from '../../shared/http/contract/routes/posts.js';
import { authoredPost } from '../../shared/auth/post-author.js';
import { refuseIfBlocked } from '../../shared/safety/checks.js';
import { livePost, readPostWithCard } from '../../shared/safety/suspension.js';

/**
 * Edits the body and/or publishes a draft. Publishing sends the mention and reply events (no
 * mention of a profile across a block); a draft reply or quote is not published across a block
 * with the author it answers or quotes, nor answering or quoting a post by a suspended profile.
 */
export const handler = httpHandler(routes.updatePost, async ({ params, body, auth, now, viewer, reads }) => {
  const author = auth.actingProfile;
  const before = await authoredPost(params.post_id, author.id, 'edit');
  const at = now.toISOString();
  const publishAt = body.status === 'published' && before.status === 'draft' ? at : undefined;
  const events = [];
  if (publishAt) {
    // A quote is published only of a post that still is (its count is folded later, unconditioned),
    // a reply or quote only of a post whose author is not suspended (the card read with it says so).
    const readIf = (id: string | null | undefined) => (id ? readPostWithCard(id, reads) : Promise.resolve(undefined));
    const [parent, quoted] = await Promise.all([readIf(before.reply_to_post_id), readIf(before.quoted_post_id)]);
    if (parent && !livePost(parent)) throw replyParentNotFound();
    if (quoted && !livePost(quoted)) throw quotedPostNotFound();
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
