/** Validating webhook bodies as a receiver would: ajv (JSON Schema 2020-12) with the standard formats. */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/** A strict ajv: an unknown keyword or format in a published schema fails to compile. */
export function eventSchemaValidator() {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats(ajv);
  const compiled = new Map<object, ValidateFunction>();
  return (schema: Record<string, unknown>, body: unknown): string[] => {
    let validate = compiled.get(schema);
    if (!validate) compiled.set(schema, (validate = ajv.compile(schema)));
    return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
  };
}
