import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { routeList } from '../../shared/http/contract/route-table.js';
import { routeMatcher } from '../../shared/http/route-match.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
const match = routeMatcher(routeList);

let ajv: Ajv2020 | undefined;
const validators = new Map<string, ValidateFunction>();

const pointer = (...segments: string[]) =>
  segments.map((s) => encodeURIComponent(s.replaceAll('~', '~0').replaceAll('/', '~1'))).join('/');

async function documentValidator(baseUrl: string): Promise<Ajv2020> {
  if (!ajv) {
    const document = (await (await fetch(`${baseUrl}/v1/openapi.json`)).json()) as object;
    ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(document, 'openapi');
  }
  return ajv;
}

/**
 * Checks one response of the suite against the served OpenAPI document: the status must be
 * documented for the operation, and the body must match that status's schema.
 */
export async function assertMatchesContract(
  baseUrl: string,
  method: string,
  path: string,
  status: number,
  body: unknown,
): Promise<void> {
  const found = match(method, new URL(path, 'http://x').pathname);
  if (found.kind !== 'found') {
    // 404/405 for unknown routes: the envelope is checked by the tests themselves.
    return;
  }
  const { route } = found;
  const schemaPath = pointer(
    'paths',
    route.path,
    route.method.toLowerCase(),
    'responses',
    String(status),
    'content',
    'application/json',
    'schema',
  );
  const validator = await documentValidator(baseUrl);
  let validate = validators.get(schemaPath);
  if (!validate) {
    validate = validator.getSchema(`openapi#/${schemaPath}`);
    if (!validate)
      throw new Error(
        `contract: ${route.method} ${route.path} does not document status ${status} (body ${JSON.stringify(body).slice(0, 300)})`,
      );
    validators.set(schemaPath, validate);
  }
  if (!validate(body)) {
    throw new Error(
      `contract: ${route.method} ${route.path} ${status} does not match the OpenAPI document: ${validator.errorsText(validate.errors)}\nbody: ${JSON.stringify(body).slice(0, 500)}`,
    );
  }
}
