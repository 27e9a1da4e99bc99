import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LAMBDA_RUNTIME } from '../../infra/lambda-defaults.js';

const major = (version: string) => version.replace(/^[^\d]*/, '').split('.')[0];
const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  devDependencies: Record<string, string>;
};

describe('the runtime the tests run on', () => {
  it('is the Node.js major that Lambda runs', () => {
    expect(LAMBDA_RUNTIME.name).toBe(`nodejs${major(process.versions.node)}.x`);
  });

  it('is the one npm ci installs, whatever node the machine has', () => {
    expect(major(packageJson.devDependencies.node ?? '')).toBe(major(process.versions.node));
  });
});
