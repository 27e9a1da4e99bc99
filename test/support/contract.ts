import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { routeList } from '../../shared/http/contract/route-table.js';
import { routeMatcher } from '../../shared/http/route-match.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
const match = routeMatcher(routeList);

interface Contract {
  ajv: Ajv2020;
  document: { paths: Record<string, Record<string, { responses: Record<string, { $ref?: string }> }>> };
}
let contract: Contract | undefined;
const validators = new Map<string, ValidateFunction>();

const pointer = (...segments: string[]) =>
  segments.map((s) => encodeURIComponent(s.replaceAll('~', '~0').replaceAll('/', '~1'))).join('/');

async function servedContract(baseUrl: string): Promise<Contract> {
  if (!contract) {
    const document = (await (await fetch(`${baseUrl}/v1/openapi.json`)).json()) as Contract['document'];
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(document, 'openapi');
    contract = { ajv, document };
  }
  return contract;
}

/**
 * Where a documented response is written: in the operation, or (the shared error responses) under
 * `components/responses`, which the operation names by `$ref`.
 */
function responsePointer(document: Contract['document'], path: string, method: string, status: string): string {
  const ref = document.paths[path]?.[method]?.responses[status]?.$ref;
  return ref ? ref.slice(2) : pointer('paths', path, method, 'responses', status);
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
  const { ajv: validator, document } = await servedContract(baseUrl);
  const schemaPath = `${responsePointer(document, route.path, route.method.toLowerCase(), String(status))}/${pointer('content', 'application/json', 'schema')}`;
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
