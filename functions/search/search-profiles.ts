import { routes } from '../../shared/http/contract/routes/search.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentProfile } from '../../shared/http/present/profiles.js';
import { openSearchIndexFromConfig } from '../../shared/ports/aws/opensearch-search-index.js';
import type { SearchIndex } from '../../shared/ports/search-index.js';
import { searchProfiles } from '../../shared/search/search-profiles.js';

/** Public typeahead over profiles: exact username first, then by followers; the acting profile's blocks and mutes left out. */
export const handler = httpHandler(
  routes.searchProfiles,
  async ({ query, ports, viewer }) => {
    const page = await searchProfiles(ports.search, query, viewer);
    return {
      items: page.items.map((profile) => ({ profile: presentProfile(profile) })),
      next_cursor: page.next_cursor,
    };
  },
  { ports: (): { search: SearchIndex } => ({ search: openSearchIndexFromConfig() }) },
);
