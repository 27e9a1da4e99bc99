import * as z from 'zod';
import { EVENT_TYPE_NAMES } from '../../../domain/events.js';
import { WebhookEventBodies } from './webhook-events.js';

export const WebhookEventType = z
  .object({
    type: z.enum(EVENT_TYPE_NAMES),
    description: z.string(),
    schema: z.record(z.string(), z.unknown()).meta({
      description:
        'JSON Schema (draft 2020-12) of the whole body `{ id, type, profile_id, created_at, data }`, self-contained (shared resources under `$defs`), `type` pinned by `const`. The same schema is the request body of this type in the OpenAPI `webhooks` section.',
    }),
    example: z
      .union(Object.values(WebhookEventBodies))
      .meta({ description: 'A body of this type, valid against `schema`.' }),
  })
  .meta({ id: 'EventCatalogueEntry' });

export const WebhookEventTypes = z.object({ items: z.array(WebhookEventType) });
