import { httpHandler } from '../../shared/http/handler.js';
import { presentSocial } from '../../shared/http/present-social.js';
import { removePost } from '../../shared/store/posts.js';
import { routes } from './routes.js';
import { authoredPost } from '../../shared/auth/post-author.js';

/** Sets status `removed`; removing a removed post again answers the post as it is. */
export const handler = httpHandler(routes.deletePost, async ({ params, auth, now }) => {
  const author = auth.actingProfile!;
  const before = await authoredPost(params.post_id, author.id, 'remove');
  const post = before.status === 'removed' ? before : await removePost(before, now.toISOString());
  return presentSocial.postWithProfile(post, author);
});
