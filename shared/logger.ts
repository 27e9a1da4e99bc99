import { Logger } from '@aws-lambda-powertools/logger';

/** Structured JSON logs (CloudWatch in AWS, stdout locally). */
export const logger = new Logger({ serviceName: 'social-network-api' });
