import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { acknowledgeFindings } from './nag-acknowledgements.js';
import { stackSettings } from './settings.js';
import { SocialNetworkStack } from './stack.js';

export const STACK_NAME = 'SocialNetworkApi';

export interface ServiceAppOptions {
  /** Context as `-c key=value` would give it (tests use it to skip bundling). */
  context?: Record<string, unknown>;
  outdir?: string;
}

/**
 * The CDK app as `cdk synth` / `cdk deploy` build it (infra/app.ts), and as the tests build it.
 *
 * No `env`: the stack stays environment-agnostic, so the template names its region and account
 * through `AWS::Region` / `AWS::AccountId` and one synthesised assembly deploys anywhere. Offline,
 * the CLI sets CDK_DEFAULT_REGION=us-east-1; passing that on would pin the template to it.
 *
 * cdk-nag's AwsSolutions and Serverless packs check every synthesis: a finding that is not
 * acknowledged with its reason (infra/nag-acknowledgements.ts) fails `cdk synth` and the tests.
 */
export function serviceApp(options: ServiceAppOptions = {}): { app: App; stack: SocialNetworkStack } {
  const app = new App({ context: options.context, outdir: options.outdir });
  const stack = new SocialNetworkStack(app, STACK_NAME, {
    ...stackSettings(app),
    description: 'Social network service: HTTP API on Lambda, one DynamoDB table, webhook deliveries',
  });
  Validations.of(app).addPlugins(
    new AwsSolutionsChecks(app, { verbose: true }),
    new ServerlessChecks(app, { verbose: true }),
  );
  acknowledgeFindings(stack);
  return { app, stack };
}
