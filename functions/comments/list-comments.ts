import { isSuspended } from '../../shared/domain/reports.js';
import { notFound } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentComment } from '../../shared/http/present/comments.js';
import { presentProfile } from '../../shared/http/present/profiles.js';
import { likedComments, listComments } from '../../shared/store/comments.js';
import { getPostWithReaction } from '../../shared/store/posts.js';
import { getProfiles } from '../../shared/store/profiles.js';
import type { ReadBatch } from '../../shared/store/read-batch.js';
import type { PrefetchRequest } from '../../shared/http/middleware/prefetch.js';
import type { ProfileRecord } from '../../shared/domain/entities.js';
import { routes } from '../../shared/http/contract/routes/comments.js';

async function readCommentPage(
  { params, query, viewerId }: PrefetchRequest<typeof routes.listComments>,
  reads: ReadBatch,
) {
  const [{ post, author }, page] = await Promise.all([
    getPostWithReaction(params.post_id, undefined, reads),
    listComments(params.post_id, query),
  ]);
  const [profiles, liked] =
    post?.status === 'published' && !isSuspended(author)
      ? await Promise.all([
          getProfiles(page.items.map((c) => c.profile_id)),
          likedComments(
            page.items.map((c) => c.id),
            viewerId,
          ),
        ])
      : [new Map<string, ProfileRecord>(), new Set<string>()];
  return { post, author, page, profiles, liked };
}

/**
 * Public: top-level comments and nested replies of a published post, oldest first. Read ahead in
 * two rounds that overlap authentication: the post (in the credential's BatchGetItem) beside the
 * comment Query, then the authors beside the claimed viewer's reactions. Acting as a profile: a
 * post across a block is not found, and comments by profiles it blocks, is blocked by or mutes are
 * left out (a page may hold fewer than `limit`).
 */
export const handler = httpHandler(
  routes.listComments,
  async ({ auth, prefetched, viewer }) => {
    const { post, author, page, profiles, liked } = await prefetched;
    // A suspended author's post reads 404, with its comments (its card says so).
    if (post?.status !== 'published' || isSuspended(author) || viewer.isBlockedWith(post.profile_id)) {
      throw notFound('Post');
    }
    // Reactions were read for the claimed viewer: shown only once that profile is the acting one.
    const viewerLikes = auth.actingProfile ? liked : new Set<string>();
    const viewerId = auth.actingProfile?.id;
    return {
      items: page.items.flatMap((c) => {
        const profile = viewer.hidesAuthor(c.profile_id) ? undefined : profiles.get(c.profile_id);
        // A removed comment stays on the list of its author only; a deleted one (kept for its replies, its
        // body empty) on every list; a suspended author's leave every list.
        const shown = profile && !isSuspended(profile) && (c.status !== 'removed' || c.profile_id === viewerId);
        return shown ? [{ comment: presentComment(c, viewerLikes.has(c.id)), profile: presentProfile(profile) }] : [];
      }),
      next_cursor: page.next_cursor,
    };
  },
  { prefetch: readCommentPage },
);
