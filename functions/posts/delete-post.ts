import { httpHandler } from '../../shared/http/handler.js';
import { presentPostWithProfile } from '../../shared/http/present/posts.js';
import { removePost } from '../../shared/store/posts.js';
import { routes } from '../../shared/http/contract/routes/posts.js';
import { authoredPost } from '../../shared/auth/post-author.js';

/** Sets status `removed`; removing a removed post again answers the post as it is. */
export const handler = httpHandler(routes.deletePost, async ({ params, auth, now }) => {
  const author = auth.actingProfile;
  const before = await authoredPost(params.post_id, author.id, 'remove');
  const post = before.status === 'removed' ? before : await removePost(before, now.toISOString());
  return presentPostWithProfile(post, author);
});
