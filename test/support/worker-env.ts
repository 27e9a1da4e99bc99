import { inject } from 'vitest';
import { observeResponses } from './api.js';
import { assertMatchesContract } from './contract.js';

// Integration tests call the store directly; point it at the run's DynamoDB Local.
process.env.DYNAMODB_ENDPOINT = inject('dynamodbEndpoint');
process.env.TABLE_NAME = inject('tableName');
process.env.POWERTOOLS_LOG_LEVEL ??= 'ERROR';

// Every response an e2e test receives through `call` is checked against the served OpenAPI document.
observeResponses(({ method, path, status, body }) =>
  assertMatchesContract(inject('baseUrl'), method, path, status, body),
);
