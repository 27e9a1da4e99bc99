import { finishFeedPage, startFeedPage } from '../../shared/feed/read-page.js';
import { routes } from '../../shared/http/contract/routes/feed.js';
import type { PrefetchRequest } from '../../shared/http/middleware/prefetch.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentPostWithProfile } from '../../shared/http/present/posts.js';
import type { ReadBatch } from '../../shared/store/read-batch.js';

/** The inbox Query starts beside the credential's read; the read-time authors join that read. */
const startPage = ({ query, viewerId }: PrefetchRequest<typeof routes.getFeed>, reads: ReadBatch) =>
  viewerId ? startFeedPage(viewerId, query, reads) : Promise.resolve(undefined);

/** The acting profile's home feed, newest first. */
export const handler = httpHandler(
  routes.getFeed,
  async ({ query, auth, reads, prefetched }) => {
    const reader = auth.actingProfile;
    // What was read ahead was read for the claimed profile: it counts only once that is the acting one.
    const started = await prefetched;
    const start = started?.readerId === reader.id ? started : await startFeedPage(reader.id, query, reads);
    const page = await finishFeedPage(start, reader);
    return {
      items: page.items.map(({ post, author, liked }) => presentPostWithProfile(post, author, liked)),
      next_cursor: page.next_cursor,
    };
  },
  { prefetch: startPage },
);
