import type { TestProject } from 'vitest/node';
import { startThrowawayStack } from '../../infra/local/throwaway-stack.js';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamodbEndpoint: string;
    tableName: string;
    baseUrl: string;
  }
}

/**
 * The shared server's limits are out of reach: the whole suite calls from 127.0.0.1 and signs up
 * hundreds of users. The rate-limit tests start their own server with small limits.
 */
export const GENEROUS_RATE_LIMITS = {
  RATE_LIMIT_CREDENTIAL: '100000/60',
  RATE_LIMIT_IP: '100000/60',
  RATE_LIMIT_LOGIN_EMAIL: '100000/60',
  RATE_LIMIT_LOGIN_IP: '100000/60',
  RATE_LIMIT_SIGNUP_EMAIL: '100000/60',
  RATE_LIMIT_SIGNUP_IP: '100000/60',
};

/** Test-speed webhook retries: attempts 2..10 follow within seconds. */
export const TEST_RETRY_DELAYS = '1,1,1,1,1,1,1,1,1';

/** How every test server runs besides its table: local receivers, quick retries, test-cost passwords, generous limits. */
export const TEST_SERVER_SETTINGS = {
  WEBHOOK_URL_POLICY: 'allow-local',
  WEBHOOK_RETRY_DELAYS: TEST_RETRY_DELAYS,
  WEBHOOK_TIMEOUT_MS: '2000',
  // scrypt at N=2^14 rather than production's 2^17: hundreds of sign-ups on 2 cores.
  PASSWORD_SCRYPT_LOG2_N: '14',
  ...GENEROUS_RATE_LIMITS,
};

export default function setup(project: TestProject) {
  return startTestStack(project);
}

/** DynamoDB Local (in memory) and the local server, started with `serverArgs` (e.g. `--bundles <dir>`). */
export async function startTestStack(project: TestProject, serverArgs: string[] = []) {
  const stack = await startThrowawayStack({ tableName: 'social-network-test', env: TEST_SERVER_SETTINGS, serverArgs });
  project.provide('dynamodbEndpoint', stack.dynamodbEndpoint);
  project.provide('tableName', stack.tableName);
  project.provide('baseUrl', stack.server.baseUrl);
  return () => stack.stop();
}
