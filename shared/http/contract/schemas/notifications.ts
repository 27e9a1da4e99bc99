import * as z from 'zod';
import {
  FROM_AGENTS_VALUES,
  NOTIFICATION_REASONS,
  PREFERENCE_VALUES,
  SUBJECT_TYPES,
  isReason,
} from '../../../domain/notifications.js';
import { Comment } from './comments.js';
import { Timestamp, Uuid, page } from './common.js';
import { Post } from './posts.js';
import { Profile } from './profiles.js';

export const NotificationReason = z.enum(NOTIFICATION_REASONS).meta({ id: 'NotificationReason' });

export const Notification = z
  .object({
    id: Uuid,
    reason: NotificationReason,
    subject: z.object({ type: z.enum(SUBJECT_TYPES), id: Uuid }).meta({
      description:
        'What the notification is about: the new post (mention, reply, quote), the liked post, the new or liked comment, the followed profile (the recipient), the access grant, the resolved report (report_resolved), the post or comment removed by moderation (content_removed).',
    }),
    post: Post.nullable().meta({
      description:
        'The post the reason is about, or that the comment belongs to; null when none, or no longer readable.',
    }),
    comment: Comment.nullable().meta({ description: 'The comment of comment reasons; null otherwise.' }),
    actors: z.array(Profile).max(3).meta({
      description: 'The profiles that acted, newest first (at most 3); none for report_resolved and content_removed.',
    }),
    actors_count: z.number().int().min(0).meta({
      description:
        'How many profiles acted (a grouped reason counts each profile once while unseen); 0 for report_resolved and content_removed, which moderation sends.',
    }),
    seen: z.boolean(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Notification' });

const ReasonList = z
  .string()
  .min(1)
  .max(300)
  .refine(
    (list) => list.split(',').every((reason) => isReason(reason.trim())),
    `must be a comma-separated list of reasons: ${NOTIFICATION_REASONS.join(', ')}`,
  )
  .transform((list) => [...new Set(list.split(',').map((reason) => reason.trim()))] as NotificationReason[]);
type NotificationReason = z.infer<typeof NotificationReason>;

export const ListNotificationsQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().min(1).max(2048).optional(),
  reasons: ReasonList.optional().meta({ description: 'Only these reasons, comma-separated (e.g. `like,follow`).' }),
});

export const NotificationPage = page(Notification).meta({ id: 'NotificationPage' });

export const UnreadCount = z.object({ count: z.number().int().min(0) }).meta({ id: 'NotificationUnreadCount' });

export const MarkSeenBody = z.strictObject({
  seen_at: Timestamp.optional().meta({
    description: 'Every notification updated at or before it is seen (default: now; not in the future).',
  }),
});

export const MarkSeenResult = z
  .object({ seen_at: Timestamp, count: z.number().int().min(0).meta({ description: 'The unread count left.' }) })
  .meta({ id: 'NotificationsSeen' });

const Preference = z.enum(PREFERENCE_VALUES);

const FromAgents = z.enum(FROM_AGENTS_VALUES).meta({
  description:
    '`none`: no notification for what an `agent` profile did (replies, comments, mentions, quotes, likes, follows, accepted grants); `all` (default): as the reason says.',
});

export const NotificationPreferences = z
  .object({
    ...(Object.fromEntries(NOTIFICATION_REASONS.map((reason) => [reason, Preference])) as Record<
      (typeof NOTIFICATION_REASONS)[number],
      typeof Preference
    >),
    from_agents: FromAgents,
  })
  .meta({
    id: 'NotificationPreferences',
    description:
      '`all`: notify; `following`: only of profiles the recipient follows; `none`: never. Applies to notifications written after the change.',
  });

export const NotificationPreferencesBody = z.strictObject({
  ...(Object.fromEntries(NOTIFICATION_REASONS.map((reason) => [reason, Preference.optional()])) as Record<
    (typeof NOTIFICATION_REASONS)[number],
    z.ZodOptional<typeof Preference>
  >),
  from_agents: FromAgents.optional(),
});
