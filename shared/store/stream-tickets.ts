/**
 * Stream tickets (domain/stream-tickets.ts) in the table. Spending one is a conditional delete
 * that holds only while it exists and is not expired (TTL removes it later, not on time): of two
 * streams opened with one ticket, exactly one gets it.
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { ticketHashOf, type StreamTicketRecord } from '../domain/stream-tickets.js';
import { db } from './client.js';
import { conditionOutcome } from './conditional.js';
import { entities } from './entities.js';
import { conditionRequest, when } from './expressions.js';
import { putItem, recordOf } from './items.js';
import { keys } from './keys.js';

export const storeStreamTicket = (record: StreamTicketRecord): Promise<void> => putItem(entities.streamTicket, record);

/** The profile a ticket opens the stream of, spending it; undefined for a used, expired or unknown ticket. */
export async function spendStreamTicket(ticket: string, now: Date): Promise<string | undefined> {
  const outcome = await conditionOutcome(
    db().send(
      new DeleteCommand({
        Key: keys.streamTicket(ticketHashOf(ticket)),
        ...conditionRequest([when.exists(), when.compare('expires_at', '>', now.toISOString())]),
        ReturnValues: 'ALL_OLD',
      }),
    ),
  );
  if (!outcome.held || !outcome.result.Attributes) return undefined;
  return recordOf(entities.streamTicket, outcome.result.Attributes).profile_id;
}
