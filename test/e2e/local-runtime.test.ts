import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { JAVA_MISSING } from '../../infra/local/dynamodb-local.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

describe('npm start without Java', () => {
  it('says so in one clear line and exits non-zero', () => {
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      PATH: '/nonexistent',
      NODE_NO_WARNINGS: '1',
    };
    delete env.DYNAMODB_ENDPOINT;
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'infra/local/main.ts', '--in-memory'], {
      cwd: root,
      env,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([JAVA_MISSING]);
    expect(result.stdout).not.toContain('listening');
  });
});
