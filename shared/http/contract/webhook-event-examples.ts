/**
 * One example body per webhook event type, published beside its schema (GET /v1/webhook-event-types
 * and the OpenAPI `webhooks` section). Typed by the schemas, and a unit test validates each against
 * its JSON Schema, so an example cannot drift from what is delivered.
 */
import type * as z from 'zod';
import type { Comment } from './schemas/comments.js';
import type { Post } from './schemas/posts.js';
import type { Profile } from './schemas/profiles.js';
import type { DeliveredEventType, WebhookEventBody } from './schemas/webhook-events.js';

const at = '2026-11-25T09:30:00.000Z';
const later = '2026-11-25T09:31:12.345Z';

const ada: z.output<typeof Profile> = {
  id: '0b5e2c1a-7d4f-4c3b-9a8e-1f2d3c4b5a69',
  username: 'ada',
  type: 'human',
  name: 'Ada Lovelace',
  call_name: 'Ada',
  legal_name_verified: false,
  occupation: 'Software Engineer',
  location: { country_code: 'GB', city_name: 'London' },
  bio: 'Analytical engines, mostly.',
  created_at: '2026-11-01T08:00:00.000Z',
  updated_at: '2026-11-01T08:00:00.000Z',
  media: { avatar: {}, banner: {} },
};

const grace: z.output<typeof Profile> = {
  ...ada,
  id: '6f1d9e3b-2a4c-4e8f-8b7d-5c6a4b3e2d10',
  username: 'grace',
  name: 'Grace Hopper',
  call_name: 'Grace',
  occupation: null,
  location: null,
  bio: null,
};

const post: z.output<typeof Post> = {
  id: '9c4f7a2e-1b3d-4f6a-8e5c-2d7b9a1c3e4f',
  profile_id: grace.id,
  kind: 'post',
  body_preview: 'Shipping the compiler today, thanks @ada for the review.',
  body_truncated: false,
  images: [],
  image_count: 0,
  reply_to_post_id: null,
  root_post_id: null,
  quoted_post_id: null,
  visibility: 'public',
  status: 'published',
  published_at: at,
  reply_count: 0,
  likes_count: 0,
  viewer_reaction: null,
  comments_count: 0,
  quotes_count: 0,
  created_at: at,
  updated_at: at,
  edited_at: null,
  body: 'Shipping the compiler today, thanks @ada for the review.',
  removed_by: null,
  reply_policy: 'everyone',
  hashtags: [],
  automated: false,
  via: { kind: 'session' },
};

const adaPost: z.output<typeof Post> = {
  ...post,
  id: '3a8b6c4d-5e2f-4a1b-9c7d-8e6f5a4b3c2d',
  profile_id: ada.id,
  body_preview: 'Notes on the engine.',
  body: 'Notes on the engine.',
};
const reply: z.output<typeof Post> = {
  ...post,
  id: '7d2e4f6a-8b1c-4d3e-a5f7-9b2c4d6e8f1a',
  kind: 'reply',
  body_preview: 'Lovely notes, @ada.',
  body: 'Lovely notes, @ada.',
  reply_to_post_id: adaPost.id,
  root_post_id: adaPost.id,
};
const quote: z.output<typeof Post> = {
  ...post,
  id: '1e3f5a7b-9c2d-4e6f-8a1b-3c5d7e9f2a4b',
  quoted_post_id: adaPost.id,
};

const comment: z.output<typeof Comment> = {
  id: '5b7d9f1a-3c5e-4a7b-9d2f-4a6c8e1b3d5f',
  post_id: adaPost.id,
  profile_id: grace.id,
  parent_comment_id: null,
  body: 'Which engine?',
  status: 'published',
  replies_count: 0,
  reactions_count: 0,
  viewer_reaction: null,
  created_at: later,
  updated_at: later,
  edited_at: null,
  removed_by: null,
  automated: false,
  via: { kind: 'session' },
};
const adaComment: z.output<typeof Comment> = {
  ...comment,
  id: '2c4e6a8b-1d3f-4b5c-8e7a-9f1b3d5c7e2a',
  profile_id: ada.id,
  body: 'Thoughts welcome.',
  replies_count: 1,
};

const eventId = 'e4a1c3b5-7d9f-4e2a-b6c8-0d2f4a6c8e1b';

export const webhookEventExamples: { [T in DeliveredEventType]: WebhookEventBody<T> } = {
  'post.mention': {
    id: eventId,
    type: 'post.mention',
    profile_id: ada.id,
    created_at: at,
    data: { post, profile: grace },
  },
  'post.reply': {
    id: eventId,
    type: 'post.reply',
    profile_id: ada.id,
    created_at: at,
    data: { post: reply, profile: grace, reply_to_post_id: adaPost.id },
  },
  'post.quoted': {
    id: eventId,
    type: 'post.quoted',
    profile_id: ada.id,
    created_at: at,
    data: { post: quote, profile: grace, quoted_post_id: adaPost.id },
  },
  'comment.created': {
    id: eventId,
    type: 'comment.created',
    profile_id: ada.id,
    created_at: later,
    data: { comment, post: { ...adaPost, comments_count: 1 }, profile: grace },
  },
  'comment.reply': {
    id: eventId,
    type: 'comment.reply',
    profile_id: ada.id,
    created_at: later,
    data: {
      comment: { ...comment, parent_comment_id: adaComment.id },
      post: { ...adaPost, comments_count: 2 },
      profile: grace,
      parent_comment: adaComment,
    },
  },
  'comment.deleted': {
    id: eventId,
    type: 'comment.deleted',
    profile_id: ada.id,
    created_at: later,
    data: { comment_id: comment.id, post_id: adaPost.id },
  },

  'post.deleted': {
    id: eventId,
    type: 'post.deleted',
    profile_id: ada.id,
    created_at: later,
    data: { post_id: adaPost.id },
  },
  'profile.deleted': {
    id: eventId,
    type: 'profile.deleted',
    profile_id: ada.id,
    created_at: later,
    data: { profile_id: grace.id, username: grace.username, deleted_at: later },
  },

  'message.created': {
    id: eventId,
    type: 'message.created',
    profile_id: ada.id,
    created_at: later,
    data: {
      message: {
        id: '8f1a3c5e-7b9d-4f2a-a4c6-e8b1d3f5a7c9',
        sender_profile_id: grace.id,
        recipient_profile_id: ada.id,
        body: 'Coffee on Thursday?',
        created_at: later,
        automated: false,
        via: {
          kind: 'oauth',
          client_id: 'https://calendar.example/oauth/client.json',
          client_name: 'Calendar Assistant',
        },
      },
      profile: grace,
    },
  },
  'profile.followed': {
    id: eventId,
    type: 'profile.followed',
    profile_id: ada.id,
    created_at: later,
    data: { profile: grace, followed_profile: ada, followed_at: later },
  },
  'access_grant.accepted': {
    id: eventId,
    type: 'access_grant.accepted',
    profile_id: ada.id,
    created_at: later,
    data: {
      access_grant: {
        id: '4d6f8a1c-3e5b-4d7f-9a2c-6e8b1d3f5a7b',
        profile_id: ada.id,
        manager_profile: grace,
        permissions: ['posting', 'commenting'],
        status: 'accepted',
        accepted_at: later,
        declined_at: null,
        revoked_at: null,
        resent_at: null,
        resend_count: 0,
        created_at: at,
        updated_at: later,
      },
      managed_profile: ada,
    },
  },
  'webhook_endpoint.disabled': {
    id: eventId,
    type: 'webhook_endpoint.disabled',
    profile_id: null,
    created_at: later,
    data: {
      webhook_endpoint: {
        id: 'a1b3c5d7-e9f2-4a4b-8c6d-8e1f3a5b7c9d',
        name: 'CRM sync',
        url: 'https://hooks.example.com/social',
        status: 'disabled',
        disabled_at: later,
        disabled_reason: 'gone',
      },
    },
  },
  'webhook_delivery.exhausted': {
    id: eventId,
    type: 'webhook_delivery.exhausted',
    profile_id: null,
    created_at: later,
    data: {
      webhook_delivery: {
        id: 'c3d5e7f9-a2b4-8c6d-9e1f-3a5b7c9d1e2f',
        webhook_event_id: '6e8a1c3e-5b7d-4f9a-b2c4-d6e8f1a3c5e7',
        webhook_endpoint_id: 'a1b3c5d7-e9f2-4a4b-8c6d-8e1f3a5b7c9d',
        event_type: 'post.mention',
        profile_id: ada.id,
        attempt_count: 10,
        last_status_code: 503,
        last_error: null,
      },
    },
  },
  'webhook.test': {
    id: eventId,
    type: 'webhook.test',
    profile_id: ada.id,
    created_at: later,
    data: { webhook_endpoint_id: 'a1b3c5d7-e9f2-4a4b-8c6d-8e1f3a5b7c9d', message: 'This is a test event.' },
  },
};
