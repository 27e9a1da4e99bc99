import * as z from 'zod';
import {
  EVENT_LOG_DAYS,
  LIVE_EVENT_TYPES,
  type LiveEventType as LiveEventTypeName,
} from '../../../domain/live-events.js';
import { STREAM_TICKET_SECONDS } from '../../../domain/stream-tickets.js';
import { Conversation } from './conversations.js';
import { Message } from './messages.js';
import { Notification } from './notifications.js';
import { Post } from './posts.js';
import { Profile } from './profiles.js';
import { Timestamp, Uuid } from './common.js';

export const LiveEventType = z.enum(LIVE_EVENT_TYPES).meta({ id: 'LiveEventType' });

const EventId = z
  .string()
  .max(64)
  .meta({ description: "An event's id: its place in the profile's log (ids sort in log order; opaque otherwise)." });

const base = { id: EventId, profile_id: Uuid, created_at: Timestamp };

export const LiveEvent = z
  .discriminatedUnion('type', [
    z.object({ ...base, type: z.enum(['notification.created', 'notification.updated']), data: Notification }),
    z.object({
      ...base,
      type: z.literal('message.created'),
      data: z.object({
        message: Message,
        conversation: Conversation.meta({
          description:
            "The conversation as the profile's list shows it right after this message (`with`: the other side; its unread count counts this message when received).",
        }),
      }),
    }),
    z.object({
      ...base,
      type: z.literal('conversation.read'),
      data: z.object({
        conversation: Conversation.meta({
          description: "The conversation as the profile's list shows it, `other_read_up_to` moved to `read_up_to`.",
        }),
        read_up_to: Uuid.meta({ description: 'The last message the other side has now read.' }),
      }),
    }),
    z.object({ ...base, type: z.literal('feed.post'), data: z.object({ post: Post, profile: Profile }) }),
    z.object({
      ...base,
      type: z.literal('profile.deleted'),
      data: z.record(z.string(), z.unknown()),
    }),
  ])
  .meta({
    id: 'LiveEvent',
    description: `One event of the acting profile's log (kept ${EVENT_LOG_DAYS} days).`,
  });

const TypeList = z
  .string()
  .min(1)
  .max(300)
  .refine(
    (list) => list.split(',').every((type) => (LIVE_EVENT_TYPES as readonly string[]).includes(type.trim())),
    `must be a comma-separated list of event types: ${LIVE_EVENT_TYPES.join(', ')}`,
  )
  .transform((list) => [...new Set(list.split(',').map((type) => type.trim()))] as LiveEventTypeName[])
  .meta({ description: 'Only these event types, comma-separated (e.g. `message.created,feed.post`).' });

const After = EventId.min(1).meta({
  description: "Answer the events after this id (a previous answer's `next_cursor` or an event's `id`).",
});

export const ListEventsQuery = z.strictObject({
  after: After.optional(),
  types: TypeList.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  wait: z.coerce.number().int().min(0).max(25).default(0).meta({
    description: 'Seconds to hold an empty answer until an event comes (long poll); 0 answers at once.',
  }),
});

export const EventPage = z
  .object({
    items: z.array(LiveEvent),
    next_cursor: EventId.nullable().meta({
      description:
        'The `after` of the next request: the last event looked at, or `after` again when there was none (null: the log is empty and no `after` was given).',
    }),
  })
  .meta({ id: 'EventPage' });

export const StreamQuery = z.strictObject({
  after: After.optional(),
  types: TypeList.optional(),
  ticket: z.string().min(1).max(200).optional().meta({
    description: 'A stream ticket from `POST /v1/stream-tickets`, for clients that cannot send headers (EventSource).',
  }),
});

export const StreamTicket = z
  .object({
    ticket: z.string().meta({ description: `Opens one stream, within ${STREAM_TICKET_SECONDS} seconds.` }),
    expires_at: Timestamp,
  })
  .meta({ id: 'StreamTicket' });
