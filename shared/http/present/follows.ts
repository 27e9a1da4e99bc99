import type { FollowListItem } from '../../store/follows.js';
import type { Page } from '../../store/pagination.js';
import { presentProfile } from './profiles.js';

/** A page of follows as `{ profile, followed_at }` items. */
export const presentFollowPage = (page: Page<FollowListItem>) => ({
  items: page.items.map((item) => ({ profile: presentProfile(item.profile), followed_at: item.followed_at })),
  next_cursor: page.next_cursor,
});
