import { describe, expect, it } from 'vitest';
import { EVENT_TYPE_NAMES, OPERATIONAL_EVENT_TYPES, TEST_EVENT_TYPE } from '../../shared/domain/events.js';
import { catalogueEntry, eventCatalogue, eventJsonSchema } from '../../shared/http/contract/event-catalogue.js';
import { DELIVERED_EVENT_TYPES, WebhookEventBodies } from '../../shared/http/contract/schemas/webhook-events.js';
import { webhookEventExamples } from '../../shared/http/contract/webhook-event-examples.js';
import { eventSchemaValidator } from '../support/event-schemas.js';

const validate = eventSchemaValidator();
const allTypes = [...EVENT_TYPE_NAMES, TEST_EVENT_TYPE] as const;

/** Every `$ref` anywhere in a JSON value. */
const refsIn = (value: unknown): string[] =>
  value === null || typeof value !== 'object'
    ? []
    : Object.entries(value).flatMap(([key, v]) => (key === '$ref' && typeof v === 'string' ? [v] : refsIn(v)));

describe('the typed event catalogue', () => {
  it('has a body schema and an example for every event type of the domain, and webhook.test', () => {
    expect([...DELIVERED_EVENT_TYPES].sort()).toEqual([...allTypes].sort());
    for (const type of allTypes) {
      expect(WebhookEventBodies[type], type).toBeDefined();
      expect(webhookEventExamples[type]?.type, type).toBe(type);
    }
  });

  it('lists the selectable types, each with its description, schema and example', () => {
    const catalogue = eventCatalogue();
    expect(catalogue.map((e) => e.type)).toEqual(EVENT_TYPE_NAMES);
    for (const entry of catalogue) {
      expect(entry.description.length, entry.type).toBeGreaterThan(10);
      expect(entry.schema).toBe(eventJsonSchema(entry.type));
      expect(entry.example).toBe(webhookEventExamples[entry.type]);
    }
  });

  it.each(allTypes)('%s: a self-contained 2020-12 schema of the whole body that its example validates', (type) => {
    const { schema, example } = catalogueEntry(type);
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.required).toEqual(['id', 'type', 'profile_id', 'created_at', 'data']);
    expect(schema).toMatchObject({ properties: { type: { const: type } } });
    const defs = Object.keys((schema.$defs as object | undefined) ?? {});
    for (const ref of refsIn(schema))
      expect(
        defs.map((d) => `#/$defs/${d}`),
        ref,
      ).toContain(ref);
    expect(validate(schema, example)).toEqual([]);
  });

  it.each(allTypes)('%s: refuses a body of another type, an unknown field in data, or a missing resource', (type) => {
    const { schema, example } = catalogueEntry(type);
    const other = allTypes.find((t) => t !== type)!;
    expect(validate(schema, { ...example, type: other })).not.toEqual([]);
    expect(validate(schema, { ...example, data: { ...example.data, surprise: true } })).not.toEqual([]);
    const [first] = Object.keys(example.data);
    const { [first!]: _dropped, ...missing } = example.data as Record<string, unknown>;
    expect(validate(schema, { ...example, data: missing })).not.toEqual([]);
  });

  it('says profile_id is null for the operational events and a profile id for the others', () => {
    for (const type of allTypes) {
      const { schema, example } = catalogueEntry(type);
      const operational = (OPERATIONAL_EVENT_TYPES as readonly string[]).includes(type);
      expect(schema, type).toMatchObject({ properties: { profile_id: { type: operational ? 'null' : 'string' } } });
      const swapped = operational ? '0b5e2c1a-7d4f-4c3b-9a8e-1f2d3c4b5a69' : null;
      expect(validate(schema, { ...example, profile_id: swapped }), type).not.toEqual([]);
    }
  });
});
