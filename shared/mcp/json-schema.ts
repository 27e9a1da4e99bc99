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
/** An output schema says the shape, not the limits: types, fields, enums (the budget is 40 KB for all tools). */
const OUTPUT_KEYWORDS = new Set(['type', 'properties', 'required', 'items', 'anyOf', 'enum', 'const']);

/** A zod schema as plain JSON Schema with its `$defs` inlined. */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
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
  return (io === 'input' ? trimInput : trimOutput)(inline(document, []) as JsonSchema);
}

function trimInput(node: JsonSchema): JsonSchema {
  return mapSchema(node, (key, value, parent) => {
    if (INPUT_NOISE.has(key)) return undefined;
    // A uuid's pattern restates its format in 150 characters.
    if (key === 'pattern' && parent.format !== undefined) return undefined;
    return value;
  });
}

function trimOutput(node: JsonSchema): JsonSchema {
  return mapSchema(node, (key, value) => (OUTPUT_KEYWORDS.has(key) ? value : undefined));
}

/** Walks a schema's keywords (not the names under `properties`), keeping what `keep` answers. */
function mapSchema(
  node: JsonSchema,
  keep: (key: string, value: unknown, parent: JsonSchema) => unknown,
): JsonSchema {
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
