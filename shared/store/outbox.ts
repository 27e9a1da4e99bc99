import type { OutboxEvent } from '../domain/events.js';
import { tableName } from './client.js';
import type { TransactItem } from './transact.js';

/** Outbox items expire after 30 days; deliveries keep their own copy of the body. */
const OUTBOX_TTL_SECONDS = 30 * 86_400;

export const eventKey = (id: string) => ({ pk: `EVENT#${id}`, sk: 'EVENT' });

/** The outbox write that joins a domain change's transaction; the table stream carries it to the fan-out. */
export function outboxItem(event: OutboxEvent): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...eventKey(event.id),
        entity: 'event',
        ...event,
        expires_at_epoch: Math.ceil(Date.parse(event.created_at) / 1000) + OUTBOX_TTL_SECONDS,
      },
    },
  };
}
