import type { OutboxEvent } from '../domain/events.js';
import { entities } from './entities.js';
import { putTransactItem } from './items.js';
import type { TransactItem } from './transact.js';

/** The outbox write that joins a domain change's transaction; the table stream carries it to the fan-out. */
export function outboxItem(event: OutboxEvent): TransactItem {
  return putTransactItem(entities.event, event, { ifAbsent: false });
}
