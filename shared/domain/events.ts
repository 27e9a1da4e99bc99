/**
 * The webhook event catalogue and the outbox event shape. A domain change writes its event in the
 * same transaction as the change (see store/outbox.ts); the fan-out delivers it.
 */
import * as z from 'zod/mini';

export const EVENT_TYPES = {
  'post.mention': 'A published post or reply mentions the profile (@username).',
  'post.reply': 'Someone published a reply to a post of the profile.',
  'post.quoted':
    'Someone published a post quoting a post of the profile (data: post, the quote; profile, its author; quoted_post_id).',
  'comment.created': 'Someone commented (top level) on a post of the profile.',
  'comment.reply': 'Someone replied to a comment of the profile.',
  'comment.deleted':
    "A comment was deleted (by its author, the post's author or a moderator); sent where its comment.created or comment.reply went.",
  'post.deleted': "A post was deleted (its author's erasure); sent where its post.reply or post.quoted went.",
  'profile.deleted':
    'A profile the profile followed, was followed by, or exchanged messages with was erased (data: its tombstone).',
  'message.created': 'Someone sent the profile a message.',
  'profile.followed': 'Someone started following the profile.',
  'access_grant.accepted': 'A manager accepted an access grant over the profile.',
  'webhook_endpoint.disabled':
    'Operational (workspace-wide, profile_id null): another endpoint of the workspace was disabled (it answered 410, or all its deliveries failed for the health period).',
  'webhook_delivery.exhausted':
    'Operational (workspace-wide, profile_id null): a delivery to another endpoint of the workspace failed for good after its last attempt.',
} as const;

export type EventType = keyof typeof EVENT_TYPES;
export const EVENT_TYPE_NAMES = Object.keys(EVENT_TYPES) as [EventType, ...EventType[]];

/**
 * Events about the workspace's webhooks themselves, not about a profile: they carry
 * `profile_id: null`, ignore the endpoint's `profile_ids`, and never go to the endpoint they are about.
 */
export const OPERATIONAL_EVENT_TYPES = [
  'webhook_endpoint.disabled',
  'webhook_delivery.exhausted',
] as const satisfies readonly EventType[];
export type OperationalEventType = (typeof OPERATIONAL_EVENT_TYPES)[number];
export const isOperationalEvent = (type: string): type is OperationalEventType =>
  (OPERATIONAL_EVENT_TYPES as readonly string[]).includes(type);

/** Sent only by POST .../webhook-endpoints/{id}/test, to that endpoint alone. */
export const TEST_EVENT_TYPE = 'webhook.test';

/** An event as the outbox item holds it; the fan-out checks what it reads off the stream against it. */
export const OutboxEvent = z.object({
  id: z.string(),
  type: z.union([z.enum(EVENT_TYPE_NAMES), z.literal(TEST_EVENT_TYPE)]),
  /** The affected profile: deliveries go to endpoints of its workspace that selected it. Null for operational events. */
  profile_id: z.nullable(z.string()),
  /** The affected profile's workspace (internal: used by the selection rule, not sent). */
  workspace_id: z.string(),
  created_at: z.string(),
  /** The resources involved, as the API presents them. */
  data: z.record(z.string(), z.unknown()),
});
export type OutboxEvent = z.infer<typeof OutboxEvent>;

/** The JSON body a receiver gets; identical for every endpoint and every attempt. */
export const eventBody = (event: OutboxEvent) => ({
  id: event.id,
  type: event.type,
  profile_id: event.profile_id,
  created_at: event.created_at,
  data: event.data,
});
