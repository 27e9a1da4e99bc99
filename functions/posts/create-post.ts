import { disclosureOf } from '../../shared/domain/disclosure.js';
import { attachableMedia, postImageOf } from '../../shared/domain/media-attachments.js';
import { extractMentions } from '../../shared/domain/mentions.js';
import { newPost, quotedPostNotFound, replyParentNotFound } from '../../shared/domain/posts.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentPostWithProfile } from '../../shared/http/present/posts.js';
import { socialEvents } from '../../shared/http/present/social-events.js';
import { getMedia } from '../../shared/store/media.js';
import { profilesByUsername } from '../../shared/store/mentions.js';
import { createPost } from '../../shared/store/posts.js';
import type { ReadBatch } from '../../shared/store/read-batch.js';
import { routes } from '../../shared/http/contract/routes/posts.js';
import { refuseIfBlocked } from '../../shared/safety/checks.js';
import { livePost, readPostWithCard } from '../../shared/safety/suspension.js';
import { checkThreadReply } from '../../shared/safety/thread.js';

/** The post replied to or quoted, when it takes replies and quotes (published, its author not suspended). */
const readIf = async (id: string | undefined, reads: ReadBatch) =>
  id ? livePost(await readPostWithCard(id, reads)) : undefined;

/**
 * A post, reply or quote. A reply is refused across a block with the parent's or the thread root's
 * author, or by the root's reply policy; a quote across a block with the quoted author. A mention
 * of a profile on the other side of a block is written but notifies nobody. A post by a suspended
 * profile is not found to reply to or quote (its card, read with it, says so).
 */
export const handler = httpHandler(routes.createPost, async ({ body, auth, now, viewer, reads }) => {
  const author = auth.actingProfile;
  const [parent, quoted, uploads] = await Promise.all([
    readIf(body.reply_to_post_id, reads),
    readIf(body.quote_of_post_id, reads),
    Promise.all(body.images.map((image) => getMedia(image.media_id, now))),
  ]);
  if (body.reply_to_post_id && !parent) throw replyParentNotFound();
  if (body.quote_of_post_id && !quoted) throw quotedPostNotFound();
  if (quoted) refuseIfBlocked(viewer, quoted.profile_id);
  if (parent) await checkThreadReply(viewer, author, parent);
  const media = uploads.map((m, i) => attachableMedia(m, author.id, 'post_image', `images[${i}].media_id`));

  const images = media.map((m, i) => postImageOf(m, body.images[i]!.alt_text));
  const post = newPost(now, author, { ...body, images }, disclosureOf(author, auth.principal), { parent, quoted });
  const mentioned =
    post.status === 'published'
      ? (await profilesByUsername(extractMentions(post.body))).filter((m) => !viewer.isBlockedWith(m.id))
      : [];
  await createPost(
    post,
    author,
    media,
    post.status === 'published' ? socialEvents.postPublished(post, author, mentioned) : [],
  );
  return presentPostWithProfile(post, author);
});
