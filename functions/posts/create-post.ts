import { extractMentions } from '../../shared/domain/mentions.js';
import { newPost, quotedPostNotFound, replyParentNotFound } from '../../shared/domain/posts.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentPostWithProfile } from '../../shared/http/present/posts.js';
import { socialEvents } from '../../shared/http/present/social-events.js';
import { profilesByUsername } from '../../shared/store/mentions.js';
import { createPost, getPost } from '../../shared/store/posts.js';
import { routes } from '../../shared/http/contract/routes/posts.js';

const readIf = (id: string | undefined) => (id ? getPost(id) : undefined);

export const handler = httpHandler(routes.createPost, async ({ body, auth, now }) => {
  const author = auth.actingProfile;
  const [parent, quoted] = await Promise.all([readIf(body.reply_to_post_id), readIf(body.quote_of_post_id)]);
  if (body.reply_to_post_id && parent?.status !== 'published') throw replyParentNotFound();
  if (body.quote_of_post_id && quoted?.status !== 'published') throw quotedPostNotFound();

  const post = newPost(now, author, body, { parent, quoted });
  const mentioned = post.status === 'published' ? await profilesByUsername(extractMentions(post.body)) : [];
  await createPost(
    post,
    author,
    post.status === 'published' ? socialEvents.postPublished(post, author, mentioned) : [],
  );
  return presentPostWithProfile(post, author);
});
