/** `npm run openapi:types`: regenerates the SDK's types from the served OpenAPI document. */
import { writeFileSync } from 'node:fs';
import { openApiTypes, TYPES_FILE } from '../sdk/tools/openapi-types.js';
import { projectPath } from '../infra/project-root.js';
import { openApiDocument } from '../shared/http/contract/openapi.js';
import { routeList } from '../shared/http/contract/route-table.js';

writeFileSync(projectPath(TYPES_FILE), await openApiTypes(openApiDocument(routeList)));
console.log(`OpenAPI types written to ${TYPES_FILE}`);
