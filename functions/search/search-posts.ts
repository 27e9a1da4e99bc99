import { routes } from '../../shared/http/contract/routes/search.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentPostWithProfile } from '../../shared/http/present/posts.js';
import { openSearchIndexFromConfig } from '../../shared/ports/aws/opensearch-search-index.js';
import type { SearchIndex } from '../../shared/ports/search-index.js';
import { searchPosts } from '../../shared/search/search-posts.js';
import { likedPosts } from '../../shared/store/posts.js';

/** Public: published posts matching the query, newest first or top; the acting profile's blocks and mutes left out. */
export const handler = httpHandler(
  routes.searchPosts,
  async ({ query, auth, ports, viewer }) => {
    const page = await searchPosts(ports.search, query, viewer);
    const liked = await likedPosts(
      page.items.map(({ post }) => post.id),
      auth.actingProfile?.id,
    );
    return {
      items: page.items.map(({ post, author }) => presentPostWithProfile(post, author, liked.has(post.id))),
      next_cursor: page.next_cursor,
    };
  },
  { ports: (): { search: SearchIndex } => ({ search: openSearchIndexFromConfig() }) },
);
