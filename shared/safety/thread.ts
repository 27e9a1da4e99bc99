/**
 * Whether the acting profile may reply within a thread or comment on one of its posts: no block
 * with the author of the post it answers, of the thread's root, or of the comment it answers; and
 * the root's reply policy, judged now (whom the root's author follows now, what the root says).
 */
import type { ProfileRecord } from '../domain/entities.js';
import { extractMentions } from '../domain/mentions.js';
import type { PostRecord } from '../domain/posts.js';
import { replyPolicyAllows, type ViewerFilter } from '../domain/safety.js';
import { AppError } from '../errors.js';
import { entities } from '../store/entities.js';
import { followKey } from '../store/follows.js';
import { getItem } from '../store/items.js';
import { getPost } from '../store/posts.js';
import { refuseIfBlocked } from './checks.js';

/** The root of the thread `post` is in: itself for a post, else read (one GetItem; a root gone leaves `post` to govern). */
const rootOf = async (post: PostRecord): Promise<PostRecord> =>
  post.root_post_id ? ((await getPost(post.root_post_id)) ?? post) : post;

/**
 * Refuses (403 blocked, then 403 reply_not_allowed) the acting profile's reply to `post` or its
 * comment on it; `others` are further profiles it answers (the parent comment's author). Reads
 * the root only when `post` is itself a reply, and the follow only under a `following` policy.
 */
export async function checkThreadReply(
  viewer: ViewerFilter,
  actor: ProfileRecord,
  post: PostRecord,
  others: readonly string[] = [],
): Promise<void> {
  for (const id of [post.profile_id, ...others]) refuseIfBlocked(viewer, id);
  const root = await rootOf(post);
  refuseIfBlocked(viewer, root.profile_id);
  const policy = root.reply_policy;
  const authorFollowsActor =
    policy === 'following' && actor.id !== root.profile_id
      ? (await getItem(entities.follow, followKey(root.profile_id, actor.id), { consistent: true })) !== undefined
      : false;
  const mentioned = policy === 'mentioned' ? extractMentions(root.body) : [];
  if (replyPolicyAllows(root, actor, { authorFollowsActor, mentioned })) return;
  throw new AppError('reply_not_allowed', {
    message: `The thread's root post lets only ${policy === 'following' ? 'the profiles its author follows' : 'the profiles it mentions'} reply or comment.`,
    hint: 'Only the root post’s author and the profiles its reply_policy names may reply anywhere in its thread or comment on its posts; see the root post’s reply_policy.',
  });
}
