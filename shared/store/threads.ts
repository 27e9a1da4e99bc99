/**
 * A thread page's reads: the post, its direct replies, the ancestors it keeps the ids of, and the
 * viewer's likes of all of them, in two round trips whatever the depth (the post's BatchGetItem
 * beside the replies' Query, then one BatchGetItem of the ancestors and the likes).
 */
import type { PostEntry } from '../domain/threads.js';
import { batchGet, keyId } from './batch.js';
import { entities } from './entities.js';
import { keys } from './keys.js';
import type { Page, PageRequest } from './pagination.js';
import { pathPage } from './paths.js';
import { getPostWithReaction, withCard, type PostWithCard } from './posts.js';
import type { ReadBatch } from './read-batch.js';

/** A post's published direct replies, oldest first, each with its author's card. */
export function listReplies(postId: string, request: PageRequest): Promise<Page<PostWithCard>> {
  return pathPage(entities.post, 'repliesOf', { reply_to_post_id: postId }, request, {
    order: 'oldest_first',
    read: withCard,
  });
}

/** What a thread page reads; `post` undefined when there is no such post (then nothing else was read). */
export type ThreadRead =
  | { post: undefined }
  | {
      post: PostEntry;
      /** The ancestors found, by id (a missing one is absent). */
      ancestors: Map<string, PostEntry>;
      replies: Page<PostEntry>;
      /** Which of the post, its ancestors and its replies the viewer likes (empty without a viewer). */
      liked: Set<string>;
    };

/**
 * The post (through the request's `reads`, with the credential) beside its replies' page, then
 * its ancestors and the viewer's likes of every post on the page in one BatchGetItem. A forged
 * cursor rejects (invalid_request) only once the post is known to exist.
 */
export async function readThread(
  postId: string,
  viewerId: string | undefined,
  request: PageRequest,
  reads: ReadBatch,
): Promise<ThreadRead> {
  const repliesPage = listReplies(postId, request);
  // Awaited below once the post is found; a rejection before that is not left unhandled.
  repliesPage.catch(() => undefined);
  const read = await getPostWithReaction(postId, viewerId, reads);
  if (!read.post) return { post: undefined };
  const replies = await repliesPage;
  const ancestorIds = read.post.ancestor_ids;
  const reactionOf = viewerId ? (id: string) => keys.postReaction(id, viewerId) : undefined;
  const likable = reactionOf ? [...ancestorIds, ...replies.items.map(({ post }) => post.id)] : [];
  const found = await batchGet([...ancestorIds.map((id) => keys.post(id)), ...likable.map((id) => reactionOf!(id))]);
  const ancestors = new Map<string, PostEntry>();
  for (const id of ancestorIds) {
    const item = found.get(keyId(keys.post(id)));
    if (item) ancestors.set(id, withCard(item));
  }
  const liked = new Set(likable.filter((id) => found.has(keyId(reactionOf!(id)))));
  if (read.liked) liked.add(postId);
  return { post: { post: read.post, author: read.author }, ancestors, replies, liked };
}
