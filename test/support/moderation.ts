/** Helpers of the safety tests: the operator's moderator command, reports, the moderation queue. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { inject } from 'vitest';
import { call } from './api.js';
import type { Actor } from './social.js';

const run = promisify(execFile);

/**
 * `npm run moderator -- grant|revoke <email>` as the operator runs it, pointed at the test run's
 * DynamoDB Local. Resolves with its exit code and output.
 */
export async function moderatorCommand(
  command: 'grant' | 'revoke',
  email: string,
): Promise<{ code: number; output: string }> {
  const env = { ...process.env, DYNAMODB_ENDPOINT: inject('dynamodbEndpoint'), TABLE_NAME: inject('tableName') };
  try {
    const { stdout, stderr } = await run('npm', ['run', '--silent', 'moderator', '--', command, email], { env });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

export const report = (a: Actor, body: Record<string, unknown>) =>
  call('POST', '/v1/reports', { token: a.key, profileId: a.profile.id, body });

/** Every reported subject of one status, in queue order (all pages). */
export async function queue(session: string, status: 'open' | 'resolved' = 'open') {
  const items: any[] = [];
  let cursor: string | null = null;
  do {
    const path: string = `/v1/moderation/subjects?status=${status}&limit=100${cursor ? `&cursor=${cursor}` : ''}`;
    const response = await call('GET', path, { token: session });
    if (response.status !== 200) throw new Error(`queue failed: ${JSON.stringify(response.body)}`);
    items.push(...response.body.data.items);
    cursor = response.body.data.next_cursor;
  } while (cursor);
  return items;
}

export const resolve = (session: string, type: string, id: string, body: Record<string, unknown>) =>
  call('POST', `/v1/moderation/subjects/${type}/${id}/resolve`, { token: session, body });
