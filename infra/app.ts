#!/usr/bin/env node
/**
 * CDK entry (cdk.json runs it with tsx). Settings come from context, e.g.
 *   npx cdk deploy -c deletionProtection=false -c throttleRateLimit=50 -c throttleBurstLimit=100
 */
import { App } from 'aws-cdk-lib';
import { SocialNetworkStack } from './stack.js';
import { stackSettings } from './settings.js';

const app = new App();
new SocialNetworkStack(app, 'SocialNetworkApi', {
  ...stackSettings(app),
  description: 'Social network service: HTTP API on Lambda, one DynamoDB table, webhook deliveries',
  // Account and region of the CLI's credentials; unset at synth without credentials (stays environment-agnostic).
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
