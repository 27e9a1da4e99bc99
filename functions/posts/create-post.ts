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

const readIf = (id: string | undefined) => (id ? getPost(id) : undefined);

export const handler = httpHandler(routes.createPost, async ({ body, auth, now }) => {
  const author = auth.actingProfile;
  const [parent, quoted, uploads] = await Promise.all([
    readIf(body.reply_to_post_id),
    readIf(body.quote_of_post_id),
    Promise.all(body.images.map((image) => getMedia(image.media_id, now))),
  ]);
  if (body.reply_to_post_id && parent?.status !== 'published') throw replyParentNotFound();
  if (body.quote_of_post_id && quoted?.status !== 'published') throw quotedPostNotFound();
  const media = uploads.map((m, i) => attachableMedia(m, author.id, 'post_image', `images[${i}].media_id`));

  const images = media.map((m, i) => postImageOf(m, body.images[i]!.alt_text));
  const post = newPost(now, author, { ...body, images }, { parent, quoted });
  const mentioned = post.status === 'published' ? await profilesByUsername(extractMentions(post.body)) : [];
  await createPost(
    post,
    author,
    media,
    post.status === 'published' ? socialEvents.postPublished(post, author, mentioned) : [],
  );
  return presentPostWithProfile(post, author);
});
