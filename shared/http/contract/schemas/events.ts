import * as z from 'zod';
import { EVENT_TYPE_NAMES } from '../../../domain/events.js';

export const WebhookEventType = z
  .object({ type: z.enum(EVENT_TYPE_NAMES), description: z.string() })
  .meta({ id: 'EventCatalogueEntry' });

export const WebhookEventTypes = z.object({ items: z.array(WebhookEventType) });
