import type { Page } from '../../store/pagination.js';
import type { SafetyListItem } from '../../store/safety.js';
import { presentProfile } from './profiles.js';

/** A page of blocks or mutes as `{ profile, created_at }` items. */
export const presentSafetyPage = (page: Page<SafetyListItem>) => ({
  items: page.items.map((item) => ({ profile: presentProfile(item.profile), created_at: item.created_at })),
  next_cursor: page.next_cursor,
});
