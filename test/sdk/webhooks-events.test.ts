import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  verifyWebhook,
  type Schemas,
  type WebhookEvent,
  type WebhookEventOf,
  type WebhookEventType,
} from '@social-network/sdk';
import { webhookEventExamples } from '../../shared/http/contract/webhook-event-examples.js';

const secret = `whsec_${randomBytes(32).toString('base64')}`;

/** A request as the API sends it: the body signed now, with a fresh webhook-id. */
function signed(body: unknown) {
  const payload = JSON.stringify(body);
  const id = `msg_${randomBytes(8).toString('hex')}`;
  const now = new Date();
  const headers = {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(id, now, payload),
  };
  return { headers, payload };
}

/** What a receiver does with each type: the switch is exhaustive, each branch sees its own `data`. */
function describeEvent(event: WebhookEvent): string {
  switch (event.type) {
    case 'post.mention':
    case 'post.reply':
    case 'post.quoted':
      return `${event.data.profile.username}: ${event.data.post.body}`;
    case 'comment.created':
      return `${event.data.profile.username} on ${event.data.post.id}: ${event.data.comment.body}`;
    case 'comment.reply':
      return `${event.data.profile.username} replied to ${event.data.parent_comment.id}: ${event.data.comment.body}`;
    case 'comment.deleted':
      return `comment ${event.data.comment_id} on ${event.data.post_id} deleted`;
    case 'post.deleted':
      return `post ${event.data.post_id} deleted`;
    case 'profile.deleted':
      return `${event.data.username} was deleted at ${event.data.deleted_at}`;
    case 'message.created':
      return `${event.data.profile.username}: ${event.data.message.body}`;
    case 'profile.followed':
      return `${event.data.profile.username} follows ${event.data.followed_profile.username}`;
    case 'access_grant.accepted':
      return `${event.data.access_grant.manager_profile.username} manages ${event.data.managed_profile.username}`;
    case 'webhook_endpoint.disabled':
      return `${event.data.webhook_endpoint.name} disabled (${event.data.webhook_endpoint.disabled_reason})`;
    case 'webhook_delivery.exhausted':
      return `${event.data.webhook_delivery.event_type} failed ${event.data.webhook_delivery.attempt_count} times`;
    case 'webhook.test':
      return event.data.message;
    default: {
      const unhandled: never = event;
      return unhandled;
    }
  }
}

describe('the SDK types webhook events by their type', () => {
  it('verifyWebhook returns the union of the event bodies, narrowed by type', () => {
    expectTypeOf(verifyWebhook).returns.toEqualTypeOf<WebhookEvent>();
    expectTypeOf<WebhookEventOf<'post.mention'>['data']['post']>().toEqualTypeOf<Schemas['Post']>();
    expectTypeOf<WebhookEventOf<'post.mention'>['data']['profile']>().toEqualTypeOf<Schemas['Profile']>();
    expectTypeOf<WebhookEventOf<'comment.reply'>['data']['parent_comment']>().toEqualTypeOf<Schemas['Comment']>();
    expectTypeOf<WebhookEventOf<'comment.deleted'>['data']>().toEqualTypeOf<{ comment_id: string; post_id: string }>();
    expectTypeOf<WebhookEventOf<'webhook_endpoint.disabled'>['profile_id']>().toEqualTypeOf<null>();
    expectTypeOf<WebhookEventOf<'message.created'>['profile_id']>().toEqualTypeOf<string>();
    expectTypeOf<WebhookEventType>().toEqualTypeOf<WebhookEvent['type']>();
  });

  it('verifies a signed body of every type and hands it back typed', () => {
    for (const example of Object.values(webhookEventExamples)) {
      const { headers, payload } = signed(example);
      const event = verifyWebhook(secret, headers, payload);
      expect(event).toEqual(example);
      expect(describeEvent(event)).not.toContain('undefined');
    }
    const request = signed(webhookEventExamples['post.mention']);
    const mention = verifyWebhook(secret, request.headers, request.payload);
    expect(mention.type === 'post.mention' && mention.data.post.body).toBe(
      webhookEventExamples['post.mention'].data.post.body,
    );
  });

  it('still refuses a body changed after signing', () => {
    const { headers, payload } = signed(webhookEventExamples['message.created']);
    expect(() => verifyWebhook(secret, headers, payload.replace('Coffee', 'Tea'))).toThrow();
  });
});
