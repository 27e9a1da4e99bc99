/**
 * The writes every notification transition shares: the unread count's move (one item of the
 * transition's transaction), an unseen notification's item, a seen notification's changes.
 */
import { itemOf, pathAttributes } from './items.js';
import { updateRequest } from './expressions.js';
import { keys } from './keys.js';
import { entities } from './entities.js';
import { notificationExpiresAt, type StoredNotification } from './notification-entities.js';
import { TABLE } from './table.js';
import type { TransactItem } from './transact.js';

const { notification: layout, notificationUnread: unreadLayout } = entities;

/** The unread count's move, one item of a create or seen transition's transaction. */
export const moveUnread = (recipientId: string, delta: 1 | -1): TransactItem => ({
  Update: updateRequest({
    key: keys.notificationUnread(recipientId),
    set: { entity: unreadLayout.entity, recipient_id: recipientId },
    add: { unread: delta },
  }),
});

/**
 * The item of an unseen notification: no TTL until it is seen (notification-entities.ts), so a
 * deletion never takes an unseen one away from under its count.
 */
export function unseenItem(record: StoredNotification): Record<string, unknown> {
  const item = itemOf(layout, record);
  delete item[TABLE.ttlAttribute];
  return item;
}

/** Where a notification last updated at `updatedAt` sits on the inbox path. */
export const inboxPlacement = (n: Pick<StoredNotification, 'recipient_id' | 'id' | 'updated_at'>) =>
  pathAttributes(layout.paths, n);

/** A seen notification's attributes: seen, placed by its last update, deleted by TTL 90 days after it. */
export function seenChanges(record: StoredNotification): Record<string, unknown> {
  return {
    ...inboxPlacement(record),
    ...record,
    seen: true,
    [TABLE.ttlAttribute]: notificationExpiresAt(record.updated_at),
  };
}
