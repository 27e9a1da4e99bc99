/**
 * The routes' zod schemas as the JSON Schema of MCP tools: one flat object for the input (path,
 * query and body fields side by side) and a compact one for the output. Every `$ref` is inlined
 * (a recursive schema is refused), because MCP clients differ in how far they resolve references.
 */
import * as z from 'zod';

export type JsonSchema = { [keyword: string]: unknown };

export interface ObjectSchema extends JsonSchema {
  type: 'object';
  properties: Record<string, JsonSchema>;
  required?: string[];
}

/** Keywords that help a model fill in an input without changing what is valid (or only restating `format`). */
const INPUT_NOISE = new Set(['$schema', 'example', 'examples', 'id']);
/**
 * An output schema says the shape, not the limits: types, fields, enums, down to a few levels of
 * objects (the whole tools/list answer has a budget of 40 KB). It is a description for the model:
 * the route's own schema is what the data was checked against.
 */
const OUTPUT_KEYWORDS = new Set(['type', 'properties', 'items', 'anyOf', 'enum', 'const']);
/**
 * Objects nested this deep (the root is 0) are described as `{ "type": "object" }` unless told
 * otherwise: a post's author card and fields are described, a grant's manager profile or a
 * profile's media variants are not. The elements of a list count at the list's own level (a
 * page's items read like the object itself).
 */
const OUTPUT_OBJECT_DEPTH = 2;

/** A zod schema as plain JSON Schema with its `$defs` inlined; an output's objects described `outputDepth` deep. */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output', outputDepth = OUTPUT_OBJECT_DEPTH): JsonSchema {
  const document = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  const defs = (document.$defs ?? {}) as Record<string, JsonSchema>;
  const inline = (node: unknown, seen: readonly string[]): unknown => {
    if (Array.isArray(node)) return node.map((item) => inline(item, seen));
    if (node === null || typeof node !== 'object') return node;
    const { $ref, $defs: _defs, ...rest } = node as JsonSchema;
    if (typeof $ref === 'string') {
      const name = $ref.replace(/^#\/\$defs\//, '');
      const target = defs[name];
      if (!target || seen.includes(name)) throw new Error(`cannot inline ${$ref} (unknown or recursive)`);
      return inline({ ...target, ...rest }, [...seen, name]);
    }
    return Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, inline(value, seen)]));
  };
  const inlined = inline(document, []) as JsonSchema;
  return io === 'input' ? trimInput(inlined) : trimOutput(inlined, outputDepth);
}

function trimInput(node: JsonSchema): JsonSchema {
  return mapSchema(node, (key, value, parent) => {
    if (INPUT_NOISE.has(key)) return undefined;
    // A uuid's pattern and description restate its format (150 characters); a date-time's pattern
    // restates its format too (400 characters).
    if ((key === 'pattern' || key === 'description') && parent.format === 'uuid') return undefined;
    if (key === 'pattern' && parent.format === 'date-time') return undefined;
    return value;
  });
}

function trimOutput(node: JsonSchema, depth: number): JsonSchema {
  return simpleNullables(
    shallow(
      mapSchema(node, (key, value) => (OUTPUT_KEYWORDS.has(key) ? value : undefined)),
      0,
      depth,
    ),
  );
}

/** `anyOf: [{ type: 'string' }, { type: 'null' }]` as `type: ['string', 'null']`. */
function simpleNullables(node: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties')
      out[key] = Object.fromEntries(
        Object.entries(value as Record<string, JsonSchema>).map(([name, sub]) => [name, simpleNullables(sub)]),
      );
    else if (key === 'items') out[key] = simpleNullables(value as JsonSchema);
    else if (key === 'anyOf') {
      const options = (value as JsonSchema[]).map(simpleNullables);
      const plain = options.every((o) => Object.keys(o).length === 1 && typeof o.type === 'string');
      // Only shapes without fields fold into a type list; an object with properties stays an option.
      if (plain) out.type = options.map((o) => o.type);
      else out[key] = options;
    } else out[key] = value;
  }
  return out;
}

/**
 * `depth`: how many objects enclose this node. A top-level list's elements count at the answer's
 * level (a page's `items` are its resources); a list inside them (a notification's `actors`) counts
 * as one level deeper, like any nested object.
 */
function shallow(node: JsonSchema, depth: number, maxDepth: number, top = true): JsonSchema {
  if (node.properties !== undefined && depth >= maxDepth) return { type: node.type };
  const out: JsonSchema = { ...node };
  if (node.properties)
    out.properties = Object.fromEntries(
      Object.entries(node.properties as Record<string, JsonSchema>).map(([name, sub]) => [
        name,
        shallow(sub, sub.type === 'array' && top ? depth : depth + 1, maxDepth, false),
      ]),
    );
  if (node.items) out.items = shallow(node.items as JsonSchema, depth, maxDepth, false);
  if (node.anyOf) out.anyOf = (node.anyOf as JsonSchema[]).map((sub) => shallow(sub, depth, maxDepth, top));
  return out;
}

/** Walks a schema's keywords (not the names under `properties`), keeping what `keep` answers. */
function mapSchema(node: JsonSchema, keep: (key: string, value: unknown, parent: JsonSchema) => unknown): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    const kept = keep(key, value, node);
    if (kept === undefined) continue;
    if (key === 'properties')
      out[key] = Object.fromEntries(
        Object.entries(kept as Record<string, JsonSchema>).map(([name, sub]) => [name, mapSchema(sub, keep)]),
      );
    else if (key === 'items' && typeof kept === 'object' && !Array.isArray(kept))
      out[key] = mapSchema(kept as JsonSchema, keep);
    else if (key === 'anyOf' || key === 'oneOf' || key === 'allOf')
      out[key] = (kept as JsonSchema[]).map((sub) => mapSchema(sub, keep));
    else out[key] = kept;
  }
  return out;
}

/** The object schema of one input part; a part that is not one plain object cannot be flattened. */
export function objectSchemaOf(schema: z.ZodType, part: string): ObjectSchema {
  const json = jsonSchemaOf(schema, 'input');
  if (json.type !== 'object' || typeof json.properties !== 'object' || json.anyOf || json.oneOf)
    throw new Error(`the ${part} schema is not one object with properties, so it cannot be a flat tool input`);
  return json as ObjectSchema;
}

/** Path, query and body fields (and the tool's own extras) in one object; a name in two parts is refused. */
export function flatObject(parts: readonly ObjectSchema[]): ObjectSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const part of parts) {
    for (const [name, schema] of Object.entries(part.properties)) {
      if (name in properties) throw new Error(`input field ${name} appears twice`);
      properties[name] = schema;
    }
    required.push(...(part.required ?? []));
  }
  return {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}
