import { extractMentions } from '../../shared/domain/mentions.js';
import { newPost, replyParentNotFound } from '../../shared/domain/posts.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentPostWithProfile } from '../../shared/http/present/posts.js';
import { socialEvents } from '../../shared/http/present/social-events.js';
import { profilesByUsername } from '../../shared/store/mentions.js';
import { createPost, getPost } from '../../shared/store/posts.js';
import { routes } from '../../shared/http/contract/routes/posts.js';

export const handler = httpHandler(routes.createPost, async ({ body, auth, now }) => {
  const author = auth.actingProfile;
  const parent = body.reply_to_post_id ? await getPost(body.reply_to_post_id) : undefined;
  if (body.reply_to_post_id && parent?.status !== 'published') throw replyParentNotFound();

  const post = newPost(now, author, body, parent);
  const mentioned = post.status === 'published' ? await profilesByUsername(extractMentions(post.body)) : [];
  await createPost(
    post,
    author,
    post.status === 'published' ? socialEvents.postPublished(post, author, mentioned) : [],
  );
  return presentPostWithProfile(post, author);
});
