/** The audit stamp as the stream image carries it (domain/audit.ts WrittenBy), checked before it is recorded. */
import * as z from 'zod/mini';
import { AUDIT_ACTOR_KINDS } from '../domain/audit.js';

export const WrittenBySchema = z.object({
  entry_id: z.optional(z.string()),
  request_id: z.string(),
  at: z.string(),
  workspace_id: z.string(),
  actor: z.object({
    kind: z.enum(AUDIT_ACTOR_KINDS),
    user_id: z.optional(z.string()),
    api_key_id: z.optional(z.string()),
    oauth_grant_id: z.optional(z.string()),
    client_name: z.optional(z.string()),
  }),
  acting_profile_id: z.nullable(z.string()),
  route: z.string(),
  target: z.object({ type: z.string(), id: z.string() }),
  ip_prefix: z.nullable(z.string()),
});

/** The part of an item's image the consumer reads: its stamp. */
export const StampedImage = z.object({ written_by: WrittenBySchema });
