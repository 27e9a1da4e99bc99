/**
 * Stands in for `@modelcontextprotocol/server/_shims` in the Lambda bundles (esbuild alias in
 * infra/bundling.ts). The SDK imports its JSON Schema validator (ajv and ajv-formats, about
 * 150 KiB minified) from there statically, for schemas it validates itself: `fromJsonSchema`
 * without a validator of its own and form elicitation. This service uses neither: its tools'
 * schemas validate nothing in the SDK (shared/mcp/server.ts), the routes validate their input.
 * Not used locally: the local runtime loads the real module. test/bundle/lambda-bundle-contents.test.ts
 * pins that the MCP bundle carries no ajv.
 */
import process from 'node:process';

const refuse = (): never => {
  throw new Error('JSON Schema validation in the MCP SDK is not bundled into this Lambda (see infra/bundling.ts)');
};

export class DefaultJsonSchemaValidator {
  getValidator(): never {
    return refuse();
  }
}

export { process };
