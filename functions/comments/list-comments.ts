import { notFound } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentComment } from '../../shared/http/present/comments.js';
import { presentProfile } from '../../shared/http/present/profiles.js';
import { likedComments, listComments } from '../../shared/store/comments.js';
import { getPost } from '../../shared/store/posts.js';
import { getProfiles } from '../../shared/store/profiles.js';
import type { ReadBatch } from '../../shared/store/read-batch.js';
import type { PrefetchRequest } from '../../shared/http/middleware/prefetch.js';
import type { ProfileRecord } from '../../shared/domain/entities.js';
import { routes } from '../../shared/http/contract/routes/comments.js';

async function readCommentPage(
  { params, query, viewerId }: PrefetchRequest<typeof routes.listComments>,
  reads: ReadBatch,
) {
  const [post, page] = await Promise.all([getPost(params.post_id, false, reads), listComments(params.post_id, query)]);
  const [profiles, liked] =
    post?.status === 'published'
      ? await Promise.all([
          getProfiles(page.items.map((c) => c.profile_id)),
          likedComments(
            page.items.map((c) => c.id),
            viewerId,
          ),
        ])
      : [new Map<string, ProfileRecord>(), new Set<string>()];
  return { post, page, profiles, liked };
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
    const { post, page, profiles, liked } = await prefetched;
    if (post?.status !== 'published' || viewer.isBlockedWith(post.profile_id)) throw notFound('Post');
    // Reactions were read for the claimed viewer: shown only once that profile is the acting one.
    const viewerLikes = auth.actingProfile ? liked : new Set<string>();
    return {
      items: page.items.flatMap((c) => {
        const profile = viewer.hidesAuthor(c.profile_id) ? undefined : profiles.get(c.profile_id);
        return profile ? [{ comment: presentComment(c, viewerLikes.has(c.id)), profile: presentProfile(profile) }] : [];
      }),
      next_cursor: page.next_cursor,
    };
  },
  { prefetch: readCommentPage },
);
