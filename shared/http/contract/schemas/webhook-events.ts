/**
 * The body of every webhook event, one schema per type: the single source of the JSON Schemas in
 * GET /v1/webhook-event-types, of the OpenAPI `webhooks` section and so of the SDK's event types.
 * `data` holds the resources involved in their API shapes (the same schemas the routes answer with).
 */
import * as z from 'zod';
import { TEST_EVENT_TYPE, type EventType } from '../../../domain/events.js';
import { Comment } from './comments.js';
import { Timestamp, Uuid } from './common.js';
import { AccessGrant } from './grants.js';
import { Message } from './messages.js';
import { Post } from './posts.js';
import { Profile } from './profiles.js';
import { WebhookDelivery, WebhookEndpoint } from './webhooks.js';

/** Every type a receiver can get: the catalogue's, and `webhook.test`. */
export type DeliveredEventType = EventType | typeof TEST_EVENT_TYPE;

const EventId = Uuid.meta({ description: 'Event id: the same for every endpoint the event reaches.' });
const AffectedProfile = Uuid.meta({ description: 'The affected profile (whose endpoints selected it).' });
const NoProfile = z.null().meta({
  description: 'Always null: the event concerns the workspace, not a profile (profile_ids do not filter it).',
});

/** The body's name among the OpenAPI components: `post.mention` → `PostMentionEvent`. */
export const eventSchemaName = (type: DeliveredEventType): string =>
  `${type
    .split(/[._]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('')}Event`;

/** `{ id, type, profile_id, created_at, data }` with `type` pinned to its one value. */
function body<T extends DeliveredEventType, P extends z.ZodType, D extends z.ZodRawShape>(
  type: T,
  profileId: P,
  data: D,
) {
  return z
    .object({ id: EventId, type: z.literal(type), profile_id: profileId, created_at: Timestamp, data: z.object(data) })
    .meta({ id: eventSchemaName(type), title: type });
}

const Author = Profile.meta({ description: 'The profile that acted (the author, sender, follower).' });
const PostData = { post: Post.meta({ description: 'The published post.' }), profile: Author };

/** What receivers of `webhook_endpoint.disabled` learn about the endpoint: no secret, no profiles. */
const EndpointSummary = WebhookEndpoint.pick({
  id: true,
  name: true,
  url: true,
  status: true,
  disabled_at: true,
  disabled_reason: true,
}).meta({ id: 'WebhookEndpointSummary' });

/** What receivers of `webhook_delivery.exhausted` learn about the delivery that failed for good. */
const DeliverySummary = WebhookDelivery.pick({
  id: true,
  webhook_event_id: true,
  webhook_endpoint_id: true,
  event_type: true,
  profile_id: true,
  attempt_count: true,
  last_status_code: true,
  last_error: true,
}).meta({ id: 'WebhookDeliverySummary' });

export const WebhookEventBodies = {
  'post.mention': body('post.mention', AffectedProfile, PostData),
  'post.reply': body('post.reply', AffectedProfile, {
    ...PostData,
    reply_to_post_id: Uuid.meta({ description: "The parent post (the affected profile's)." }),
  }),
  'post.quoted': body('post.quoted', AffectedProfile, {
    ...PostData,
    quoted_post_id: Uuid.meta({ description: "The quoted post (the affected profile's)." }),
  }),
  'comment.created': body('comment.created', AffectedProfile, {
    comment: Comment,
    post: Post.meta({ description: 'The post commented on.' }),
    profile: Author,
  }),
  'comment.reply': body('comment.reply', AffectedProfile, {
    comment: Comment,
    post: Post.meta({ description: 'The post of both comments.' }),
    profile: Author,
    parent_comment: Comment.meta({ description: "The comment replied to (the affected profile's)." }),
  }),
  'comment.deleted': body('comment.deleted', AffectedProfile, {
    comment_id: Uuid,
    post_id: Uuid.meta({ description: 'The post the comment was on.' }),
  }),
  'post.deleted': body('post.deleted', AffectedProfile, { post_id: Uuid }),
  'profile.deleted': body('profile.deleted', AffectedProfile, {
    profile_id: Uuid.meta({ description: 'The erased profile (its tombstone keeps the username for 90 days).' }),
    username: z.string(),
    deleted_at: Timestamp,
  }),
  'message.created': body('message.created', AffectedProfile, { message: Message, profile: Author }),
  'profile.followed': body('profile.followed', AffectedProfile, {
    profile: Author,
    followed_profile: Profile.meta({ description: 'The profile followed (the affected one).' }),
    followed_at: Timestamp,
  }),
  'access_grant.accepted': body('access_grant.accepted', AffectedProfile, {
    access_grant: AccessGrant,
    managed_profile: Profile.meta({ description: 'The managed profile (the affected one).' }),
  }),
  'webhook_endpoint.disabled': body('webhook_endpoint.disabled', NoProfile, { webhook_endpoint: EndpointSummary }),
  'webhook_delivery.exhausted': body('webhook_delivery.exhausted', NoProfile, { webhook_delivery: DeliverySummary }),
  [TEST_EVENT_TYPE]: body(TEST_EVENT_TYPE, Uuid.meta({ description: "The endpoint's first profile." }), {
    webhook_endpoint_id: Uuid.meta({ description: 'The endpoint tested.' }),
    message: z.string(),
  }),
} satisfies { [T in DeliveredEventType]: z.ZodObject };

export type WebhookEventBody<T extends DeliveredEventType = DeliveredEventType> = {
  [K in T]: z.output<(typeof WebhookEventBodies)[K]>;
}[T];

/** Every type a receiver can get, in catalogue order, `webhook.test` last. */
export const DELIVERED_EVENT_TYPES = Object.keys(WebhookEventBodies) as DeliveredEventType[];
