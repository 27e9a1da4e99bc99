import type { ProfileRecord } from '../../domain/entities.js';
import type { EventType, OutboxEvent } from '../../domain/events.js';
import type { GrantRecord } from '../../domain/grants.js';
import { defined, eventFor as outboxEvent, type Affected } from '../../domain/outbox-events.js';
import type { WebhookEventBody } from '../contract/schemas/webhook-events.js';
import type { CommentRecord, PostRecord } from '../../domain/posts.js';
import type { FollowRecord, MessageRecord } from '../../domain/social.js';
import { presentComment } from './comments.js';
import { presentGrant } from './grants.js';
import { presentMessage } from './messages.js';
import { presentPost } from './posts.js';
import { presentProfile } from './profiles.js';

/** `eventFor` with `data` checked against the type's body schema (shared/http/contract/schemas/webhook-events.ts). */
const eventFor = <T extends EventType>(
  type: T,
  affected: Affected,
  actorProfileId: string,
  createdAt: string,
  data: WebhookEventBody<T>['data'],
) => outboxEvent(type, affected, actorProfileId, createdAt, data);

/**
 * The outbox events of each social change, with `data` holding the resources involved in their
 * API shapes (viewer_reaction is null: an event has no viewer). None is addressed to the actor.
 * It lives with the presenters because an event's body is the public contract, like a response.
 */
export const socialEvents = {
  /**
   * A post, reply or quote became published: post.mention to each mentioned profile, post.reply to
   * the parent's author, post.quoted to the quoted post's author.
   */
  postPublished(post: PostRecord, author: ProfileRecord, mentioned: readonly ProfileRecord[]): OutboxEvent[] {
    const data = { post: presentPost(post), profile: presentProfile(author) };
    const at = post.published_at ?? post.updated_at;
    const events = mentioned.map((m) => eventFor('post.mention', m, author.id, at, data));
    if (post.reply_to_post_id && post.reply_to_profile_id && post.reply_to_workspace_id) {
      const parent = { id: post.reply_to_profile_id, workspace_id: post.reply_to_workspace_id };
      events.push(eventFor('post.reply', parent, author.id, at, { ...data, reply_to_post_id: post.reply_to_post_id }));
    }
    if (post.quoted_post_id && post.quoted_profile_id && post.quoted_workspace_id) {
      const quoted = { id: post.quoted_profile_id, workspace_id: post.quoted_workspace_id };
      events.push(eventFor('post.quoted', quoted, author.id, at, { ...data, quoted_post_id: post.quoted_post_id }));
    }
    return defined(events);
  },

  /** comment.created to the post's author (top level) or comment.reply to the parent comment's author. */
  commentCreated(
    comment: CommentRecord,
    post: PostRecord,
    parent: CommentRecord | undefined,
    author: ProfileRecord,
  ): OutboxEvent[] {
    const data = { comment: presentComment(comment), post: presentPost(post), profile: presentProfile(author) };
    const event = parent
      ? eventFor(
          'comment.reply',
          { id: parent.profile_id, workspace_id: parent.author_workspace_id },
          author.id,
          comment.created_at,
          {
            ...data,
            parent_comment: presentComment(parent),
          },
        )
      : eventFor(
          'comment.created',
          { id: post.profile_id, workspace_id: post.author_workspace_id },
          author.id,
          comment.created_at,
          data,
        );
    return defined([event]);
  },

  /**
   * comment.deleted where the comment's comment.created or comment.reply went (the post's author,
   * or the parent comment's), unless that profile deleted it.
   */
  commentDeleted(
    comment: CommentRecord,
    post: PostRecord,
    parent: CommentRecord | undefined,
    actorProfileId: string,
    at: string,
  ): OutboxEvent[] {
    const affected = comment.parent_comment_id
      ? parent && { id: parent.profile_id, workspace_id: parent.author_workspace_id }
      : { id: post.profile_id, workspace_id: post.author_workspace_id };
    if (!affected) return [];
    return defined([
      eventFor('comment.deleted', affected, actorProfileId, at, { comment_id: comment.id, post_id: comment.post_id }),
    ]);
  },

  /** post.deleted where the post's post.reply or post.quoted went (an erasure deletes it; its author acts). */
  postDeleted(post: PostRecord, at: string): OutboxEvent[] {
    const data = { post_id: post.id };
    const to = [
      post.reply_to_profile_id && post.reply_to_workspace_id
        ? { id: post.reply_to_profile_id, workspace_id: post.reply_to_workspace_id }
        : undefined,
      post.quoted_profile_id && post.quoted_workspace_id
        ? { id: post.quoted_profile_id, workspace_id: post.quoted_workspace_id }
        : undefined,
    ];
    return defined(defined(to).map((affected) => eventFor('post.deleted', affected, post.profile_id, at, data)));
  },

  /**
   * profile.deleted to a profile connected to the erased one (followed, follower, messaged), its
   * data the tombstone. Its id derives from the job and the receiver: the walk meets a connection
   * more than once (a follow each way, every message), and one event is put.
   */
  profileDeleted(
    eventId: string,
    tombstone: { id: string; username: string; deleted_at: string },
    connected: { id: string; workspace_id: string },
  ): OutboxEvent[] {
    const event = eventFor('profile.deleted', connected, tombstone.id, tombstone.deleted_at, {
      profile_id: tombstone.id,
      username: tombstone.username,
      deleted_at: tombstone.deleted_at,
    });
    return event ? [{ ...event, id: eventId }] : [];
  },

  messageCreated(message: MessageRecord, sender: ProfileRecord, recipient: ProfileRecord): OutboxEvent[] {
    return defined([
      eventFor('message.created', recipient, sender.id, message.created_at, {
        message: presentMessage(message),
        profile: presentProfile(sender),
      }),
    ]);
  },

  profileFollowed(follow: FollowRecord, follower: ProfileRecord, followed: ProfileRecord): OutboxEvent[] {
    return defined([
      eventFor('profile.followed', followed, follower.id, follow.created_at, {
        profile: presentProfile(follower),
        followed_profile: presentProfile(followed),
        followed_at: follow.created_at,
      }),
    ]);
  },

  /** The accepted grant's body reflects its new status. */
  grantAccepted(accepted: GrantRecord, manager: ProfileRecord, managed: ProfileRecord): OutboxEvent[] {
    return defined([
      eventFor('access_grant.accepted', managed, manager.id, accepted.updated_at, {
        access_grant: presentGrant(accepted, manager),
        managed_profile: presentProfile(managed),
      }),
    ]);
  },
};
