/** Writes the OpenAPI document (the same one GET /v1/openapi.json serves) to a file, for linting. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { openApiDocument } from '../shared/http/contract/openapi.js';
import { routeList } from '../shared/http/contract/route-table.js';

const target = process.argv[2] ?? '.openapi/openapi.json';
mkdirSync(dirname(target), { recursive: true });
writeFileSync(target, JSON.stringify(openApiDocument(routeList), null, 2));
console.log(`OpenAPI document written to ${target}`);
