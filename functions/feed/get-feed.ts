import { authoredBy } from '../../shared/domain/disclosure.js';
import { answerFeedPage, readFeedPage } from '../../shared/feed/read-page.js';
import { routes } from '../../shared/http/contract/routes/feed.js';
import type { PrefetchRequest } from '../../shared/http/middleware/prefetch.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentPostWithProfile } from '../../shared/http/present/posts.js';
import type { ReadBatch } from '../../shared/store/read-batch.js';

/**
 * The page's reads start with the request: the inbox Query beside the credential's read (the
 * read-time authors join that read), the page's BatchGetItems (see read-page.ts) beside a session's
 * membership check.
 */
const readPage = ({ query, viewerId }: PrefetchRequest<typeof routes.getFeed>, reads: ReadBatch) =>
  viewerId ? readFeedPage(viewerId, query, reads) : Promise.resolve(undefined);

/** The acting profile's home feed, newest first. */
export const handler = httpHandler(
  routes.getFeed,
  async ({ query, auth, reads, prefetched, viewer }) => {
    const reader = auth.actingProfile;
    // What was read ahead was read for the claimed profile: it counts only once that is the acting one.
    const read = await prefetched;
    const page = await answerFeedPage(
      read?.readerId === reader.id ? read : await readFeedPage(reader.id, query, reads),
      reader,
      viewer,
    );
    return {
      items: page.items
        .filter(({ post }) => authoredBy(query.authors, post))
        .map(({ post, author, liked }) => presentPostWithProfile(post, author, liked)),
      next_cursor: page.next_cursor,
    };
  },
  { prefetch: readPage },
);
