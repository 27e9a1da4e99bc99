import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import { ConsoleSite } from './console.js';
import { createDataTable } from './data-table.js';
import { ServiceHttpApi, type Throttle } from './http-api.js';
import { WebhookPipeline } from './webhook-pipeline.js';

export interface SocialNetworkStackProps extends StackProps {
  /** DynamoDB deletion protection on the table. */
  deletionProtection: boolean;
  /** API Gateway stage throttling (whole stage, all routes together). */
  throttle: Throttle;
}

/** The whole service in AWS: the table, the HTTP API and (see below) the webhook pipeline. */
export class SocialNetworkStack extends Stack {
  readonly table: Table;
  readonly httpApi: ServiceHttpApi;
  readonly webhooks: WebhookPipeline;
  readonly console: ConsoleSite;

  constructor(scope: Construct, id: string, props: SocialNetworkStackProps) {
    super(scope, id, props);

    this.table = createDataTable(this, 'Table', { deletionProtection: props.deletionProtection });

    // Every function of the stack gets these; more (queue URL, scheduler group) are added with
    // fn.addEnvironment by the construct that owns the resource.
    const environment = { TABLE_NAME: this.table.tableName };

    this.httpApi = new ServiceHttpApi(this, 'Http', { table: this.table, environment, throttle: props.throttle });

    // ── Webhook pipeline ─────────────────────────────────────────────────────────────────────────
    // infra/webhook-pipeline.ts (queue + DLQ, sender, fan-out on the table stream, scheduler
    // group, sweeper) is instantiated here, e.g.
    //   new WebhookPipeline(this, 'Webhooks', { table: this.table, environment, routeFunctions: this.httpApi.routeFunctions });
    // It builds its Lambdas with apiFunction() from ./lambda-defaults.js (same runtime, bundling
    // and logging as the API), and grants route functions that enqueue deliveries (e.g. a manual
    // retry) what they need through this.httpApi.routeFunctions.
    // ────────────────────────────────────────────────────────────────────────────────────────────
    this.webhooks = new WebhookPipeline(this, 'Webhooks', { table: this.table, environment, routeFunctions: this.httpApi.routeFunctions });

    // The web console (/console) and the API reference (/docs), on the same gateway.
    this.console = new ConsoleSite(this, 'Console', { httpApi: this.httpApi.api, environment });

    new CfnOutput(this, 'ApiUrl', { value: this.httpApi.stage.url, description: 'Base URL of the API (paths start with /v1)' });
    new CfnOutput(this, 'ConsoleUrl', { value: `${this.httpApi.stage.url}console`, description: 'The web console (the API reference is at /docs)' });
    new CfnOutput(this, 'TableName', { value: this.table.tableName, description: 'The single DynamoDB table' });
  }
}
