import { newStreamTicket } from '../../shared/domain/stream-tickets.js';
import { routes } from '../../shared/http/contract/routes/live.js';
import { httpHandler } from '../../shared/http/handler.js';
import { storeStreamTicket } from '../../shared/store/stream-tickets.js';

/** A ticket for the acting profile's stream: only its hash is kept; it opens one stream within 60 s. */
export const handler = httpHandler(routes.createStreamTicket, async ({ auth, now }) => {
  const { ticket, record } = newStreamTicket(now, auth.actingProfile.id);
  await storeStreamTicket(record);
  return { ticket, expires_at: record.expires_at };
});
