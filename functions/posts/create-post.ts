import { attachableMedia, postImageOf } from '../../shared/domain/media-attachments.js';
import { extractMentions } from '../../shared/domain/mentions.js';
import { newPost, quotedPostNotFound, replyParentNotFound } from '../../shared/domain/posts.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentPostWithProfile } from '../../shared/http/present/posts.js';
import { socialEvents } from '../../shared/http/present/social-events.js';
import { getMedia } from '../../shared/store/media.js';
import { profilesByUsername } from '../../shared/store/mentions.js';
import { createPost, getPost } from '../../shared/store/posts.js';
import { routes } from '../../shared/http/contract/routes/posts.js';
import { refuseIfBlocked } from '../../shared/safety/checks.js';
import { checkThreadReply } from '../../shared/safety/thread.js';

const readIf = (id: string | undefined) => (id ? getPost(id) : undefined);

/**
 * A post, reply or quote. A reply is refused across a block with the parent's or the thread root's
 * author, or by the root's reply policy; a quote across a block with the quoted author. A mention
 * of a profile on the other side of a block is written but notifies nobody.
 */
export const handler = httpHandler(routes.createPost, async ({ body, auth, now, viewer }) => {
  const author = auth.actingProfile;
  const [parent, quoted, uploads] = await Promise.all([
    readIf(body.reply_to_post_id),
    readIf(body.quote_of_post_id),
    Promise.all(body.images.map((image) => getMedia(image.media_id, now))),
  ]);
  if (body.reply_to_post_id && parent?.status !== 'published') throw replyParentNotFound();
  if (body.quote_of_post_id && quoted?.status !== 'published') throw quotedPostNotFound();
  if (quoted) refuseIfBlocked(viewer, quoted.profile_id);
  if (parent) await checkThreadReply(viewer, author, parent);
  const media = uploads.map((m, i) => attachableMedia(m, author.id, 'post_image', `images[${i}].media_id`));

  const images = media.map((m, i) => postImageOf(m, body.images[i]!.alt_text));
  const post = newPost(now, author, { ...body, images }, { parent, quoted });
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
