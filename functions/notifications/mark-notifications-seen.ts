import { seenAtAllowed } from '../../shared/domain/notifications.js';
import { AppError } from '../../shared/errors.js';
import { routes } from '../../shared/http/contract/routes/notifications.js';
import { httpHandler } from '../../shared/http/handler.js';
import { markSeen } from '../../shared/store/notifications.js';

/** Every notification of the acting profile updated at or before seen_at (default now) becomes seen. */
export const handler = httpHandler(routes.markNotificationsSeen, async ({ body, auth, now }) => {
  const seenAt = body.seen_at ? new Date(body.seen_at) : now;
  if (!seenAtAllowed(seenAt, now))
    throw new AppError('invalid_request', {
      hint: `seen_at must not be in the future (the server's time is ${now.toISOString()}); leave it out to mean now.`,
    });
  const iso = seenAt.toISOString();
  return { seen_at: iso, count: await markSeen(auth.actingProfile.id, iso, now) };
});
