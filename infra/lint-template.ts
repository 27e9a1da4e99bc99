/**
 * `npm run lint:cfn`: synthesises the app as `cdk synth` does (bundling skipped: it changes only
 * asset hashes) and runs cfn-lint on every template it writes: the stack's and each nested
 * stack's (`*.nested.template.json`, the route stacks). W3005 is ignored: CDK adds a DependsOn on
 * the role next to the GetAtt of it, which is redundant, not wrong.
 *
 * Not part of `npm test`: cfn-lint is a Python tool outside package.json, and a test that passes
 * because the tool is missing could not fail on such a machine.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serviceApp, STACK_NAME } from './service-app.js';

const IGNORED = ['W3005'];

if (spawnSync('cfn-lint', ['--version'], { stdio: 'ignore' }).status !== 0) {
  console.error('cfn-lint is not installed (pip install cfn-lint).');
  process.exit(2);
}
const outdir = mkdtempSync(join(tmpdir(), 'cdk-lint-'));
try {
  serviceApp({ context: { 'aws:cdk:bundling-stacks': [] }, outdir }).app.synth();
  const templates = readdirSync(outdir)
    .filter((file) => file.endsWith('.template.json'))
    .sort();
  if (!templates.includes(`${STACK_NAME}.template.json`))
    throw new Error(`no ${STACK_NAME}.template.json in ${outdir}`);
  const result = spawnSync(
    'cfn-lint',
    ['--ignore-checks', ...IGNORED, '--', ...templates.map((file) => join(outdir, file))],
    { stdio: 'inherit' },
  );
  if (result.status === 0)
    console.log(`cfn-lint: ${templates.length} templates of ${STACK_NAME} clean (ignoring ${IGNORED.join(', ')})`);
  process.exitCode = result.status ?? 1;
} finally {
  rmSync(outdir, { recursive: true, force: true });
}
