import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, readdirSync, readFileSync, readSync, closeSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataTable } from '../../infra/data-table.js';
import { MediaPipeline } from '../../infra/media-pipeline.js';
import { projectPath } from '../../infra/project-root.js';

/** ELF e_machine values (offset 18, little-endian): what CPU a native binary is built for. */
const ELF_MACHINE = { aarch64: 0xb7, x86_64: 0x3e } as const;

function elfMachine(file: string): number {
  const header = Buffer.alloc(20);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, header, 0, header.length, 0);
  } finally {
    closeSync(fd);
  }
  expect(header.subarray(0, 4).toString('latin1'), file).toBe('\x7fELF');
  return header.readUInt16LE(18);
}

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));

/**
 * The processor's and the clean-up's assets exactly as `cdk deploy` uploads them: bundled by the
 * stack's own NodejsFunction settings (esbuild, then for the processor `npm ci` of sharp into the
 * asset with the bundling environment), on this machine, whatever its platform. Takes a few
 * seconds and the npm registry (or npm's cache).
 */
describe('the media pipeline bundles', () => {
  let outdir: string;
  let processorAsset: string;
  let cleanUpAsset: string;
  beforeAll(() => {
    outdir = mkdtempSync(join(tmpdir(), 'media-bundle-'));
    // Bundling on (no `aws:cdk:bundling-stacks` context), for this one small stack.
    const app = new App({ outdir });
    const stack = new Stack(app, 'MediaBundle');
    const table = createDataTable(stack, 'Table', { deletionProtection: false });
    const media = new MediaPipeline(stack, 'Media', {
      table,
      environment: { TABLE_NAME: table.tableName },
      uploadSigners: [],
    });
    const resources = Template.fromStack(stack).toJSON().Resources as Record<string, { Properties: any }>;
    const assetOf = (fn: typeof media.processor) => {
      const code = resources[stack.getLogicalId(fn.node.defaultChild as never)]!.Properties.Code as { S3Key: string };
      return join(outdir, `asset.${code.S3Key.replace(/\.zip$/, '')}`);
    };
    processorAsset = assetOf(media.processor);
    cleanUpAsset = assetOf(media.cleanUp);
  }, 180_000);
  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  it('carries the handler bundle, which imports sharp from beside it, and the installed sharp at the version the lock file pins', () => {
    const code = readFileSync(join(processorAsset, 'index.mjs'), 'utf8');
    expect(code).toMatch(/from ?"sharp"/);
    // sharp's own modules stay out of the bundle: they load the native binary next to them.
    expect(code).not.toContain('Could not load the "sharp" module');
    const installed = JSON.parse(readFileSync(join(processorAsset, 'node_modules/sharp/package.json'), 'utf8')) as {
      version: string;
    };
    const lock = JSON.parse(readFileSync(projectPath('package-lock.json'), 'utf8')) as {
      packages: Record<string, { version: string }>;
    };
    expect(installed.version).toBe(lock.packages['node_modules/sharp']!.version);
  });

  it("installs sharp's linux arm64 (glibc) binaries and no other platform's", () => {
    const img = readdirSync(join(processorAsset, 'node_modules/@img')).sort();
    expect(img).toEqual(['colour', 'sharp-libvips-linux-arm64', 'sharp-linux-arm64']);
    const binaries = [
      ...filesUnder(join(processorAsset, 'node_modules/@img/sharp-linux-arm64')).filter((f) => f.endsWith('.node')),
      ...filesUnder(join(processorAsset, 'node_modules/@img/sharp-libvips-linux-arm64')).filter((f) =>
        /\.so(\.|$)/.test(f),
      ),
    ];
    expect(binaries.length).toBeGreaterThanOrEqual(2);
    for (const binary of binaries) expect(elfMachine(binary), binary).toBe(ELF_MACHINE.aarch64);
    // Nothing built for the build machine's x64 anywhere in the asset.
    const nativeFiles = filesUnder(join(processorAsset, 'node_modules')).filter((f) => /\.(node|so)(\.|$)/.test(f));
    for (const file of nativeFiles) expect(elfMachine(file), file).not.toBe(ELF_MACHINE.x86_64);
  });

  it('leaves sharp out of the clean-up, whose asset loads without it', () => {
    expect(existsSync(join(cleanUpAsset, 'node_modules'))).toBe(false);
    // Loaded as Lambda loads it, in a process of its own, with nothing but the asset.
    const loaded = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const m = await import(${JSON.stringify(join(cleanUpAsset, 'index.mjs'))}); console.log(typeof m.handler);`,
      ],
      {
        cwd: cleanUpAsset,
        env: { PATH: process.env.PATH, TABLE_NAME: 'table', MEDIA_BUCKET: 'media', AWS_REGION: 'eu-west-1' },
        encoding: 'utf8',
      },
    );
    expect(loaded.stderr).toBe('');
    expect(loaded.stdout.trim()).toBe('function');
  });
});
