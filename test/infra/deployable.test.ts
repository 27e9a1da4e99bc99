import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Duration } from 'aws-cdk-lib';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeStackId } from '../../infra/route-stacks.js';
import { serviceApp, STACK_NAME } from '../../infra/service-app.js';

interface Finding {
  ruleName: string;
  acknowledgedId?: string;
  acknowledgedAt?: string;
  reason?: string;
  violatingConstructs: { constructPath: string }[];
}
interface ValidationReport {
  pluginReports: { pluginName: string; conclusion: string; violations: Finding[]; suppressedViolations?: Finding[] }[];
}

const outdirs: string[] = [];
/** Synthesises the app exactly as `cdk synth` does (infra/app.ts), bundling skipped, into a fresh directory. */
function synthesise(change?: (built: ReturnType<typeof serviceApp>) => void) {
  const outdir = mkdtempSync(join(tmpdir(), 'cdk-out-'));
  outdirs.push(outdir);
  const built = serviceApp({ context: { 'aws:cdk:bundling-stacks': [] }, outdir });
  change?.(built);
  const read = (file: string) => readFileSync(join(outdir, file), 'utf8');
  let error: unknown;
  try {
    built.app.synth();
  } catch (caught) {
    error = caught;
  }
  return {
    error,
    report: JSON.parse(read('validation-report.json')) as ValidationReport,
    /** The stack's template and every nested stack's, by file name. */
    templates: () =>
      readdirSync(outdir)
        .filter((file) => file.endsWith('.template.json'))
        .map((file) => ({ file, body: read(file) })),
  };
}

// As the CDK CLI runs the app offline (no AWS configuration): it sets these for the app.
const CLI_ENVIRONMENT = { CDK_DEFAULT_REGION: 'us-east-1', CDK_DEFAULT_ACCOUNT: '123456789012' };
const saved: Record<string, string | undefined> = {};

describe('the synthesised app (as cdk synth / cdk deploy build it)', () => {
  let result: ReturnType<typeof synthesise>;
  let built: ReturnType<typeof serviceApp>;
  beforeAll(() => {
    for (const [name, value] of Object.entries(CLI_ENVIRONMENT)) {
      saved[name] = process.env[name];
      process.env[name] = value;
    }
    result = synthesise((app) => (built = app));
  });
  afterAll(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    for (const dir of outdirs) rmSync(dir, { recursive: true, force: true });
  });

  it('passes cdk-nag (AwsSolutions and Serverless) with every finding acknowledged with its reason', () => {
    expect(result.error).toBeUndefined();
    const plugins = result.report.pluginReports;
    expect(plugins.map((p) => p.pluginName).sort()).toEqual(['AwsSolutions', 'Serverless']);
    for (const plugin of plugins) {
      expect(plugin.violations, plugin.pluginName).toEqual([]);
      expect(plugin.conclusion, plugin.pluginName).toBe('success');
      const acknowledged = plugin.suppressedViolations ?? [];
      expect(acknowledged.length, plugin.pluginName).toBeGreaterThan(0);
      for (const finding of acknowledged) expect(finding.reason?.length ?? 0, finding.ruleName).toBeGreaterThan(40);
    }
  });

  it('acknowledges findings on the constructs they concern, never on the whole stack or a whole nested stack (nodejs24.x is the latest runtime)', () => {
    const findings = result.report.pluginReports.flatMap((p) => p.suppressedViolations ?? []);
    const stacks = new Set([STACK_NAME, ...built.stack.httpApi.routeStacks.map((stack) => stack.node.path)]);
    const atStack = findings.filter((finding) => stacks.has(finding.acknowledgedAt ?? '')).map((f) => f.ruleName);
    expect(atStack).toEqual([]);
  });

  it('checks the resources of the nested route stacks as well as the stack’s own', () => {
    const paths = result.report.pluginReports.flatMap((p) =>
      (p.suppressedViolations ?? []).flatMap((finding) => finding.violatingConstructs.map((c) => c.constructPath)),
    );
    // Every route stack's functions were seen (their findings are acknowledged on the HTTP API construct).
    for (const stack of built.stack.httpApi.routeStacks)
      expect(
        paths.some((path) => path.startsWith(`${stack.node.path}/`)),
        stack.node.path,
      ).toBe(true);
  });

  it('pins no region or account in any template even when the CLI sets CDK_DEFAULT_REGION / CDK_DEFAULT_ACCOUNT', () => {
    const templates = result.templates();
    // The stack's and one per resource of the route table.
    expect(templates).toHaveLength(1 + built.stack.httpApi.routeStacks.length);
    for (const { file, body } of templates) {
      expect(body, file).not.toContain(CLI_ENVIRONMENT.CDK_DEFAULT_REGION);
      expect(body, file).not.toContain(CLI_ENVIRONMENT.CDK_DEFAULT_ACCOUNT);
      expect(body, file).not.toMatch(
        /\b(?:us|eu|ap|sa|ca|me|af|il|mx)-(?:north|south|east|west|central|northeast|southeast)-\d\b/,
      );
    }
    // Region-dependent values are references that CloudFormation resolves where it deploys.
    expect(templates.find(({ file }) => file === `${STACK_NAME}.template.json`)?.body).toMatch(
      /"Ref":\s*"AWS::Region"/,
    );
  });

  it('fails the synthesis on a finding nobody acknowledged, in the stack or in a nested stack', () => {
    const careless = `${routeStackId('posts')}/Careless`;
    const failed = synthesise(({ stack }) => {
      // A queue without TLS enforcement and without a dead-letter queue, in the stack and in a route stack.
      new Queue(stack, 'Careless', { retentionPeriod: Duration.days(1) });
      const posts = stack.httpApi.routeStacks.find((s) => s.node.id === routeStackId('posts'))!;
      new Queue(posts, 'Careless', { retentionPeriod: Duration.days(1) });
    });
    expect(String(failed.error)).toMatch(/ValidationFailed/);
    const rules = failed.report.pluginReports.flatMap((p) => p.violations.map((v) => v.ruleName));
    expect(rules).toEqual(expect.arrayContaining(['AwsSolutions-SQS3', 'AwsSolutions-SQS4']));
    const paths = failed.report.pluginReports.flatMap((p) =>
      p.violations.flatMap((v) => v.violatingConstructs.map((c) => c.constructPath)),
    );
    expect(new Set(paths)).toEqual(
      new Set([`${STACK_NAME}/Careless/Resource`, `${STACK_NAME}/Http/${careless}/Resource`]),
    );
  });
});
