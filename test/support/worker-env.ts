import { inject } from 'vitest';

// Integration tests call the store directly; point it at the run's DynamoDB Local.
process.env.DYNAMODB_ENDPOINT = inject('dynamodbEndpoint');
process.env.TABLE_NAME = inject('tableName');
process.env.POWERTOOLS_LOG_LEVEL ??= 'ERROR';
