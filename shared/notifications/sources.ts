/**
 * What the table stream's records say happened to whom: the outbox events (mentions, replies,
 * quotes, comments, accepted grants), the grant items (an invitation, created or resent), the
 * reaction and follow items (likes and follows, made or undone: the grouped reasons), and the
 * moderation notices (moderation-sources.ts). Each source is spelled so that a replay or a
 * duplicate of its record names the same notification.
 */
import type { DynamoDBRecord } from 'aws-lambda';
import * as z from 'zod/mini';
import { OutboxEvent } from '../domain/events.js';
import type { NotificationDraft, NotificationReason, GroupChange, GroupedReason } from '../domain/notifications.js';
import { decodeImage, type Decoded } from '../pipeline/decode.js';
import { entityTags, keyParts } from '../store/keys.js';
import { moderationNoticeOf, type ContentRemoval } from './moderation-sources.js';

/** The outbox events that notify, and the reason each becomes. */
const EVENT_REASONS: Partial<Record<string, NotificationReason>> = {
  'post.mention': 'mention',
  'post.reply': 'reply',
  'post.quoted': 'quote',
  'comment.created': 'comment',
  'comment.reply': 'comment_reply',
  'access_grant.accepted': 'access_accepted',
};

const Identified = z.object({ id: z.string() });
/** The parts of an event's `data` a notification needs (the resources in their API shapes). */
/** The acting profile of an event, with the type `from_agents` reads. */
const Actor = z.object({ id: z.string(), type: z.string() });
const PostEventData = z.object({ post: Identified, profile: Actor });
const CommentEventData = z.object({ comment: Identified, post: Identified, profile: Actor });
const GrantEventData = z.object({ access_grant: z.object({ id: z.string(), manager_profile: Actor }) });
const isAgent = (profile: { type: string }) => profile.type === 'agent';

/** A pending grant as its item reads on the stream: created, or resent (its resend_count moved). */
const PendingGrant = z.object({
  id: z.string(),
  profile_id: z.string(),
  manager_profile_id: z.string(),
  status: z.literal('pending'),
  resend_count: z.number(),
  resent_at: z.nullable(z.string()),
  created_at: z.string(),
});

function draftOfEvent(event: OutboxEvent): Decoded<NotificationDraft> | undefined {
  const reason = EVENT_REASONS[event.type];
  if (!reason || !event.profile_id) return undefined;
  const base = { source: `event:${event.id}`, recipient_id: event.profile_id, reason, at: event.created_at };
  if (reason === 'access_accepted') {
    const data = GrantEventData.safeParse(event.data);
    if (!data.success) return { ok: false, reason: z.prettifyError(data.error) };
    const grant = data.data.access_grant;
    const draft = {
      ...base,
      actor_id: grant.manager_profile.id,
      actor_automated: isAgent(grant.manager_profile),
      subject_type: 'access_grant' as const,
    };
    return { ok: true, record: { ...draft, subject_id: grant.id, post_id: null, comment_id: null } };
  }
  if (reason === 'comment' || reason === 'comment_reply') {
    const data = CommentEventData.safeParse(event.data);
    if (!data.success) return { ok: false, reason: z.prettifyError(data.error) };
    const { comment, post, profile } = data.data;
    return {
      ok: true,
      record: {
        ...base,
        actor_id: profile.id,
        actor_automated: isAgent(profile),
        subject_type: 'comment',
        subject_id: comment.id,
        post_id: post.id,
        comment_id: comment.id,
      },
    };
  }
  const data = PostEventData.safeParse(event.data);
  if (!data.success) return { ok: false, reason: z.prettifyError(data.error) };
  const { post, profile } = data.data;
  return {
    ok: true,
    record: {
      ...base,
      actor_id: profile.id,
      actor_automated: isAgent(profile),
      subject_type: 'post',
      subject_id: post.id,
      post_id: post.id,
      comment_id: null,
    },
  };
}

function draftOfGrant(grant: z.infer<typeof PendingGrant>): NotificationDraft {
  return {
    source: `grant:${grant.id}:invitation:${grant.resend_count}`,
    recipient_id: grant.manager_profile_id,
    actor_id: grant.profile_id,
    reason: 'access_invitation',
    subject_type: 'access_grant',
    subject_id: grant.id,
    post_id: null,
    comment_id: null,
    at: grant.resent_at ?? grant.created_at,
  };
}

/** A like or follow made or undone: its subject (the liked post or comment, the followed profile). */
export interface GroupedChange {
  reason: GroupedReason;
  subject_id: string;
  change: GroupChange;
  /**
   * Made by an agent: read from the item's own `automated` stamp, so `from_agents` needs no read
   * of the actor's profile. An undoing has no image on the stream (NEW_IMAGE) and says false.
   */
  actor_automated: boolean;
  sequenceNumber: string;
}

/**
 * What one record asks of the notifications: one notification, one change of a group, a
 * moderator's removal of content (its author's notice), or nothing.
 */
export type NotificationWork =
  | { kind: 'single'; draft: NotificationDraft }
  | ({ kind: 'grouped' } & GroupedChange)
  | { kind: 'removal'; removal: ContentRemoval };

function groupedChangeOf(record: DynamoDBRecord): GroupedChange | undefined {
  const change = record.eventName === 'INSERT' ? 'added' : record.eventName === 'REMOVE' ? 'removed' : undefined;
  const pk = record.dynamodb?.Keys?.pk?.S;
  const sk = record.dynamodb?.Keys?.sk?.S;
  const sequenceNumber = record.dynamodb?.SequenceNumber;
  if (!change || !pk || !sk || !sequenceNumber) return undefined;
  const actor_automated = record.dynamodb?.NewImage?.automated?.BOOL === true;
  const reaction = keyParts.reaction({ pk, sk });
  if (reaction) {
    return {
      reason: reaction.target === 'post' ? 'like' : 'comment_like',
      subject_id: reaction.targetId,
      change: { actor_id: reaction.profileId, change },
      actor_automated,
      sequenceNumber,
    };
  }
  const follow = keyParts.follow({ pk, sk });
  if (follow) {
    return {
      reason: 'follow',
      subject_id: follow.followedId,
      change: { actor_id: follow.followerId, change },
      actor_automated,
      sequenceNumber,
    };
  }
  return undefined;
}

/** The notification work of a stream record, undefined when it has none, or why it is malformed. */
export function notificationWorkOf(record: DynamoDBRecord): Decoded<NotificationWork> | undefined {
  const grouped = groupedChangeOf(record);
  if (grouped) return { ok: true, record: { kind: 'grouped', ...grouped } };
  const image = record.dynamodb?.NewImage;
  const entity = image?.entity?.S;
  if (record.eventName === 'INSERT' && entity === entityTags.event) {
    const event = decodeImage(OutboxEvent, image);
    if (!event.ok) return event;
    const draft = draftOfEvent(event.record);
    return draft && (draft.ok ? { ok: true, record: { kind: 'single', draft: draft.record } } : draft);
  }
  if ((record.eventName === 'INSERT' || record.eventName === 'MODIFY') && entity === entityTags.grant) {
    if (image?.status?.S !== 'pending') return undefined;
    const grant = decodeImage(PendingGrant, image);
    return grant.ok ? { ok: true, record: { kind: 'single', draft: draftOfGrant(grant.record) } } : grant;
  }
  return moderationNoticeOf(record);
}
