/**
 * The typed event catalogue: for each event type its description, the JSON Schema (2020-12) of its
 * whole body and an example, all derived from the zod body schemas.
 */
import * as z from 'zod';
import { EVENT_TYPES, EVENT_TYPE_NAMES, TEST_EVENT_TYPE, type EventType } from '../../domain/events.js';
import { WebhookEventBodies, type DeliveredEventType, type WebhookEventBody } from './schemas/webhook-events.js';
import { webhookEventExamples } from './webhook-event-examples.js';

export const TEST_EVENT_DESCRIPTION =
  'Sent by POST .../webhook-endpoints/{id}/test to that endpoint only (not selectable, so not in the catalogue); profile_id is the endpoint’s first profile.';

export const eventDescription = (type: DeliveredEventType): string =>
  type === TEST_EVENT_TYPE ? TEST_EVENT_DESCRIPTION : EVENT_TYPES[type];

export type JsonSchema = Record<string, unknown>;

/**
 * A body schema as a self-contained JSON Schema 2020-12: the shared resources (Post, Profile, …)
 * under `$defs`, the body itself at the root. `example` (an OpenAPI word) becomes the standard
 * `examples`, so strict validators such as ajv compile it as it is.
 */
function toJsonSchema(type: DeliveredEventType): JsonSchema {
  const generated = z.toJSONSchema(WebhookEventBodies[type], {
    target: 'draft-2020-12',
    override: ({ jsonSchema }) => {
      const annotated = jsonSchema as JsonSchema;
      if ('example' in annotated) {
        annotated.examples = [annotated.example];
        delete annotated.example;
      }
    },
  }) as JsonSchema & { $ref?: string; $defs?: Record<string, JsonSchema> };
  // The body has an id of its own (its OpenAPI component name), so zod puts it under $defs too.
  const { $schema, $ref, $defs = {}, ...inline } = generated;
  const rootName = $ref?.replace('#/$defs/', '');
  if (rootName === undefined) return generated;
  const { [rootName]: root, ...shared } = $defs;
  return { $schema, ...inline, ...root, $defs: shared };
}

const schemas = new Map<DeliveredEventType, JsonSchema>();

/** The JSON Schema of one type's body, generated once per process. */
export function eventJsonSchema(type: DeliveredEventType): JsonSchema {
  let schema = schemas.get(type);
  if (!schema) schemas.set(type, (schema = toJsonSchema(type)));
  return schema;
}

export interface CatalogueEntry<T extends DeliveredEventType = EventType> {
  type: T;
  description: string;
  schema: JsonSchema;
  example: WebhookEventBody<T>;
}

export const catalogueEntry = <T extends DeliveredEventType>(type: T): CatalogueEntry<T> => ({
  type,
  description: eventDescription(type),
  schema: eventJsonSchema(type),
  example: webhookEventExamples[type],
});

/** GET /v1/webhook-event-types: the types an endpoint can select, each with its schema and example. */
export const eventCatalogue = (): CatalogueEntry[] => EVENT_TYPE_NAMES.map((type) => catalogueEntry(type));
