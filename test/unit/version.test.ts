/** One version everywhere: the contract's constant, both packages and the changelog's newest entry. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API_VERSION } from '../../shared/http/contract/openapi.js';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const packageVersion = (path: string) => (JSON.parse(read(path)) as { version: string }).version;

describe('the version', () => {
  it('is a semantic version', () => {
    expect(API_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('is the same in API_VERSION, package.json, sdk/package.json and the changelog', () => {
    const newestChangelogEntry = /^## (\d+\.\d+\.\d+)/m.exec(read('docs/changelog.md'))?.[1];
    expect({
      'package.json': packageVersion('package.json'),
      'sdk/package.json': packageVersion('sdk/package.json'),
      'docs/changelog.md': newestChangelogEntry,
    }).toEqual({ 'package.json': API_VERSION, 'sdk/package.json': API_VERSION, 'docs/changelog.md': API_VERSION });
  });
});
