/**
 * Stream tickets: what a browser's `EventSource` (which sends no header) opens the acting
 * profile's stream with. A random secret, good once, for 60 seconds; only its hash is stored, and
 * the ticket is the key of its item, so spending it is one conditional delete.
 */
import { createHash, randomBytes } from 'node:crypto';

export const STREAM_TICKET_SECONDS = 60;

export interface StreamTicketRecord {
  ticket_hash: string;
  profile_id: string;
  created_at: string;
  expires_at: string;
}

export const ticketHashOf = (ticket: string): string => createHash('sha256').update(ticket).digest('base64url');

/** A new ticket for `profileId`: the secret for the caller and the record to store. */
export function newStreamTicket(now: Date, profileId: string): { ticket: string; record: StreamTicketRecord } {
  const ticket = `stk_${randomBytes(24).toString('base64url')}`;
  return {
    ticket,
    record: {
      ticket_hash: ticketHashOf(ticket),
      profile_id: profileId,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + STREAM_TICKET_SECONDS * 1000).toISOString(),
    },
  };
}
