import { readFileSync } from 'node:fs';
import { describe, expect, it, inject } from 'vitest';
import { openApiTypes, TYPES_FILE } from '../../sdk/tools/openapi-types.js';
import { projectPath } from '../../infra/project-root.js';

describe('the SDK', () => {
  it('has types generated from the OpenAPI document the API serves (run `npm run openapi:types` when this fails)', async () => {
    const served = await (await fetch(`${inject('baseUrl')}/v1/openapi.json`)).json();
    const committed = readFileSync(projectPath(TYPES_FILE), 'utf8');
    // Compared line by line so that a failure shows where the document moved.
    expect(committed.split('\n')).toEqual((await openApiTypes(served)).split('\n'));
  });
});
