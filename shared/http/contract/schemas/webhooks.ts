import * as z from 'zod';
import { EVENT_TYPE_NAMES } from '../../../domain/events.js';
import { DisplayName, Timestamp, Uuid } from './common.js';
import { Profile } from './profiles.js';

export const WebhookEndpointParams = z.strictObject({ workspace_id: Uuid, webhook_endpoint_id: Uuid });
export const WebhookDeliveryParams = z.strictObject({ workspace_id: Uuid, delivery_id: Uuid });

export const WebhookEventType = z
  .enum(EVENT_TYPE_NAMES)
  .meta({ id: 'WebhookEventType', description: 'A type from the event catalogue (GET /v1/webhook-event-types).' });

const noDuplicates = (list: readonly string[]) => new Set(list).size === list.length;

const EndpointName = DisplayName(80);
const EndpointUrl = z.string().min(1).max(2048).meta({
  description:
    'Public https URL of the receiver. No user name or password; private, loopback and link-local addresses are refused.',
});
const EventTypes = z.array(WebhookEventType).min(1).refine(noDuplicates, 'must not contain duplicates');
const ProfileIds = z.array(Uuid).min(1).max(100).refine(noDuplicates, 'must not contain duplicates').meta({
  description: 'Profiles of this workspace whose events the endpoint receives.',
});

const RateLimit = z.number().int().min(1).max(1000).nullable().meta({
  description:
    'Deliveries per second this endpoint accepts: the sender spaces its attempts at least 1/rate seconds apart (waiting or deferring them, never dropping them). null (the default): no limit of its own, only the in-flight limits.',
});

export const CreateWebhookEndpointBody = z.strictObject({
  name: EndpointName,
  url: EndpointUrl,
  event_types: EventTypes,
  profile_ids: ProfileIds,
  rate_limit_per_second: RateLimit.optional(),
});

export const UpdateWebhookEndpointBody = z
  .strictObject({
    name: EndpointName.optional(),
    url: EndpointUrl.optional(),
    event_types: EventTypes.optional(),
    profile_ids: ProfileIds.optional(),
    rate_limit_per_second: RateLimit.optional(),
  })
  .refine(
    (body) => Object.values(body).some((v) => v !== undefined),
    'send at least one of name, url, event_types, profile_ids, rate_limit_per_second',
  );

export const WebhookEndpoint = z
  .object({
    id: Uuid,
    name: z.string(),
    url: z.string(),
    event_types: z.array(WebhookEventType),
    profiles: z.array(Profile),
    status: z.enum(['active', 'disabled', 'revoked']).meta({
      description:
        'active: matches events. disabled: by the sender, see disabled_reason (POST .../enable re-enables). revoked: deleted, permanently.',
    }),
    disabled_at: Timestamp.nullable(),
    disabled_reason: z.enum(['gone', 'failing']).nullable().meta({
      description:
        "Why the sender disabled the endpoint: gone = the receiver answered 410 Gone; failing = every attempt failed for the health period (default 5 days, WEBHOOK_HEALTH_DISABLE_AFTER, failures at least 12 hours apart). null while active. A webhook_endpoint.disabled event goes to the workspace's other endpoints that select it.",
    }),
    rate_limit_per_second: RateLimit,
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'WebhookEndpoint' });

export const SigningSecret = z
  .string()
  .regex(/^whsec_[A-Za-z0-9+/]{43}=$/)
  .meta({
    id: 'WebhookSigningSecret',
    description: 'Standard Webhooks secret: whsec_ + base64 of 32 random bytes. Shown only when created or rotated.',
  });

export const WebhookEndpointList = z
  .object({
    workspace: z.object({ id: Uuid, name: z.string() }),
    available_profiles: z.array(Profile),
    items: z.array(WebhookEndpoint),
  })
  .meta({ id: 'WebhookEndpointList' });

export const WebhookDelivery = z
  .object({
    id: Uuid.meta({ description: 'Delivery id; equals the webhook-id header of every attempt.' }),
    webhook_event_id: Uuid.meta({ description: 'Event id; equals the body id.' }),
    webhook_endpoint_id: Uuid,
    webhook_endpoint_name: z.string().meta({ description: 'Current name of the endpoint.' }),
    event_type: z.string(),
    profile_id: Uuid.nullable().meta({
      description: 'The affected profile; null for operational (workspace-wide) events.',
    }),
    status: z.enum(['pending', 'delivering', 'succeeded', 'failed']),
    attempt_count: z.number().int().min(0).meta({ description: 'Completed attempts.' }),
    last_status_code: z.number().int().nullable(),
    last_error: z.string().nullable(),
    next_attempt_at: Timestamp.nullable(),
    delivered_at: Timestamp.nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'WebhookDelivery' });

export const WebhookAttempt = z
  .object({
    number: z.number().int().min(1),
    started_at: Timestamp,
    duration_ms: z.number().int().min(0),
    status_code: z.number().int().nullable(),
    error: z.string().nullable(),
    response_body: z.string().nullable().meta({ description: 'The receiver response body, truncated to 2 KB.' }),
  })
  .meta({ id: 'WebhookAttempt' });

export const WebhookTotals = z
  .object({
    total: z.number().int(),
    succeeded: z.number().int(),
    failed: z.number().int(),
    pending: z.number().int(),
    delivering: z.number().int(),
    success_rate: z
      .number()
      .nullable()
      .meta({ description: 'succeeded / (succeeded + failed) × 100, rounded to 0.1; null when none completed.' }),
  })
  .meta({ id: 'WebhookTotals' });

const DeliveryStatus = z.enum(['pending', 'delivering', 'succeeded', 'failed']);
/** RFC 3339 with any offset; compared as UTC. */
const Instant = z.iso.datetime({ offset: true }).transform((value) => new Date(value).toISOString());

export const WebhookDeliveryLogQuery = z
  .strictObject({
    status: DeliveryStatus.optional(),
    event_type: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .meta({ description: 'A type from the event catalogue (or webhook.test).' }),
    webhook_endpoint_id: Uuid.optional(),
    since: Instant.optional().meta({ description: 'Only deliveries updated at or after this instant (RFC 3339).' }),
    until: Instant.optional().meta({
      description: 'Only deliveries updated before this instant (RFC 3339; exclusive).',
    }),
    limit: z.coerce.number().int().min(1).max(100).optional().meta({ description: 'Page size, 1–100; default 50.' }),
    cursor: z
      .string()
      .min(1)
      .max(2048)
      .optional()
      .meta({ description: 'next_cursor of the previous page of the same query.' }),
  })
  .refine((q) => !q.since || !q.until || q.since < q.until, 'since must be before until');

export const WebhookActivity = z
  .object({
    totals: WebhookTotals,
    items: z.array(WebhookDelivery).max(100),
    next_cursor: z.string().nullable().meta({
      description:
        'Passes to ?cursor= for the next page; null at the end. A filtered page reads a bounded part of the log, so it can hold fewer than limit items (even none) while next_cursor is not null.',
    }),
  })
  .meta({ id: 'WebhookActivity' });

export const RecoverWebhookDeliveriesBody = z.strictObject({
  since: Instant.meta({ description: 'Start of the window (RFC 3339): failed deliveries updated at or after it.' }),
  until: Instant.optional().meta({
    description: 'End of the window (RFC 3339, exclusive); default now. At most 14 days after since.',
  }),
});

export const WebhookRecoveryResult = z
  .object({
    queued: z.number().int().min(0).meta({
      description:
        'Failed deliveries restarted by this call (at most 1000: call again to continue). Deliveries already restarted since the window began are not sent again.',
    }),
  })
  .meta({ id: 'WebhookRecoveryResult' });

export const WebhookDeliveryDetail = z
  .object({
    delivery: WebhookDelivery,
    attempts: z.array(WebhookAttempt),
    payload: z.string().nullable().meta({
      description:
        'The exact JSON text every attempt of this delivery sent as its body and signed (a webhook-signature verifies against these bytes, not against a re-serialisation of them). null once the event has expired.',
    }),
  })
  .meta({ id: 'WebhookDeliveryDetail' });

export const WebhookTestResult = z
  .object({
    webhook_event_id: Uuid,
    webhook_delivery_id: Uuid.meta({
      description: 'The delivery the test event creates (visible in the activity shortly).',
    }),
  })
  .meta({ id: 'WebhookTestResult' });
