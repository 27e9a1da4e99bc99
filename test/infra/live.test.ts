/**
 * Live in the stack (CDK template): the event-log consumer on the table stream, writing only the
 * logs; GET /v1/stream a method of a REST API in response-streaming mode (the HTTP API cannot
 * stream), which the HTTP API's route redirects to.
 */
import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { Live } from '../../infra/live.js';
import { STREAM_BATCHING } from '../../infra/stream-batching.js';
import { STREAMING_STAGE } from '../../infra/streaming-route.js';
import { DEFAULT_THROTTLE } from '../../infra/settings.js';
import { routeList } from '../../shared/http/contract/route-table.js';
import { synthConstruct, type Resource } from '../support/construct-template.js';
import { ServiceTemplates } from './service-templates.js';

let template: Template;
let resources: Record<string, Resource>;

beforeAll(() => {
  ({ template, resources } = synthConstruct(
    'LiveTest',
    (stack, table, environment) => new Live(stack, 'Live', { table, environment }),
  ));
});

describe('the event-log consumer (CDK)', () => {
  it("reads notifications created or changed, conversation items a message or the other side's read mark wrote, and feed entries created, at once as they come", () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      BatchSize: STREAM_BATCHING['live-events'].batchSize,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      FilterCriteria: {
        Filters: [
          {
            Pattern: JSON.stringify({
              eventName: ['INSERT', 'MODIFY'],
              dynamodb: { NewImage: { entity: { S: ['notification'] } } },
            }),
          },
          {
            Pattern: JSON.stringify({
              eventName: ['INSERT', 'MODIFY'],
              dynamodb: {
                NewImage: { entity: { S: ['conversation'] }, last_change: { S: ['message', 'read_by_other'] } },
              },
            }),
          },
          {
            Pattern: JSON.stringify({
              eventName: ['INSERT'],
              dynamodb: { NewImage: { entity: { S: ['feed_entry'] } } },
            }),
          },
        ],
      },
    });
  });

  it('writes only the event logs (one PutItem per event), under their partition keys', () => {
    const statements = Object.values(resources)
      .filter((r) => r.Type === 'AWS::IAM::Policy')
      .flatMap((r) => (r.Properties.PolicyDocument as { Statement: Record<string, unknown>[] }).Statement);
    const writes = statements.filter((s) => JSON.stringify(s.Action).includes('PutItem'));
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatchObject({
      Action: 'dynamodb:PutItem',
      Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['EVENTS#*'] } },
    });
    expect(JSON.stringify(statements)).not.toMatch(/UpdateItem|DeleteItem|BatchWriteItem/);
  });
});

describe('GET /v1/stream (CDK)', () => {
  const service = new ServiceTemplates();
  const ofType = (type: string) => service.ofType(type);
  const streamingRoutes = routeList.filter((route) => route.streaming);
  const [streaming] = service.stack.httpApi.streamingApis;
  /** The streaming route's method (beside it, the CORS preflight's OPTIONS). */
  const method = () => {
    const methods = ofType('AWS::ApiGateway::Method');
    expect(methods.map((m) => service.resource(m)!.Properties.HttpMethod).sort()).toEqual(['GET', 'OPTIONS']);
    const located = methods.find((m) => service.resource(m)!.Properties.HttpMethod === 'GET')!;
    return { located, properties: service.resource(located)!.Properties };
  };

  it("is a method of a REST API streaming the route function's answer (STREAM, response-streaming-invocations, 15 minutes)", () => {
    expect(streamingRoutes.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/stream']);
    expect(service.stack.httpApi.streamingApis).toHaveLength(1);
    const { located, properties } = method();
    const fn = service.locate(service.stack.httpApi.routeFunctions.get('streamEvents')!);
    expect(located.at).toBe(fn.at);
    expect(properties).toMatchObject({
      HttpMethod: 'GET',
      AuthorizationType: 'NONE',
      Integration: {
        Type: 'AWS_PROXY',
        IntegrationHttpMethod: 'POST',
        ResponseTransferMode: 'STREAM',
        TimeoutInMillis: 900_000,
      },
    });
    const uri = JSON.stringify((properties.Integration as { Uri: unknown }).Uri);
    expect(uri).toContain('/2021-11-15/functions/');
    expect(uri).toContain('/response-streaming-invocations');
    expect(uri).toContain(`"${fn.id}","Arn"`);
    // The path's resources, from the route table's path.
    const parts = Object.values(fn.at.resources)
      .filter((r) => r.Type === 'AWS::ApiGateway::Resource')
      .map((r) => r.Properties.PathPart);
    expect(parts.sort()).toEqual(['stream', 'v1']);
    // The function lasts one stream connection.
    expect(service.resource(fn)!.Properties.Timeout).toBe(900);
  });

  it("lets API Gateway invoke the function through the route stack's invoke role, and leaves no function URL", () => {
    const fn = service.locate(service.stack.httpApi.routeFunctions.get('streamEvents')!);
    const { properties } = method();
    const credentials = (properties.Integration as { Credentials: { 'Fn::GetAtt': [string, string] } }).Credentials;
    const role = { at: fn.at, id: credentials['Fn::GetAtt'][0] };
    expect(service.resource(role)!.Properties.AssumeRolePolicyDocument.Statement).toEqual([
      expect.objectContaining({ Action: 'sts:AssumeRole', Principal: { Service: 'apigateway.amazonaws.com' } }),
    ]);
    const statements = Object.values(fn.at.resources)
      .filter((r) => r.Type === 'AWS::IAM::Policy')
      .filter((r) => JSON.stringify(r.Properties.Roles).includes(role.id))
      .flatMap(
        (r) => (r.Properties.PolicyDocument as { Statement: { Action: string; Resource: unknown }[] }).Statement,
      );
    expect(statements).toHaveLength(1);
    expect(statements[0]!.Action).toBe('lambda:InvokeFunction');
    expect([statements[0]!.Resource].flat()).toContainEqual({ 'Fn::GetAtt': [fn.id, 'Arn'] });
    // No resource-based permission for API Gateway and no function URL.
    const apiGatewayPermissions = ofType('AWS::Lambda::Permission').filter(
      (p) => service.resource(p)!.Properties.Principal === 'apigateway.amazonaws.com',
    );
    expect(apiGatewayPermissions.map((p) => p.id)).toEqual([]);
    expect(ofType('AWS::Lambda::Url').map((u) => u.id)).toEqual([]);
  });

  it("answers a browser's preflight for the credential's headers from any origin (the stream is opened by a credential, never a cookie)", () => {
    const options = ofType('AWS::ApiGateway::Method')
      .map((m) => service.resource(m)!.Properties)
      .find((p) => p.HttpMethod === 'OPTIONS')!;
    const headers = JSON.stringify(options.Integration);
    expect(headers).toContain("'*'");
    expect(headers).toContain('authorization,x-profile-id,last-event-id');
  });

  it('throttles and access-logs its stage as the HTTP API does', () => {
    const [stage, ...others] = ofType('AWS::ApiGateway::Stage');
    expect(others).toEqual([]);
    expect(service.resource(stage!)!.Properties).toMatchObject({
      StageName: STREAMING_STAGE,
      MethodSettings: [
        expect.objectContaining({
          ThrottlingRateLimit: DEFAULT_THROTTLE.rateLimit,
          ThrottlingBurstLimit: DEFAULT_THROTTLE.burstLimit,
        }),
      ],
      AccessLogSetting: { DestinationArn: expect.anything(), Format: expect.stringContaining('$context.requestId') },
    });
  });

  it("redirects the HTTP API's GET /v1/stream to it (307), and outputs its URL", () => {
    const redirects = ofType('AWS::Lambda::Function').filter(
      (f) =>
        service.resource(f)!.Properties.Description === 'GET /v1/stream on the HTTP API: 307 to the streaming REST API',
    );
    expect(redirects).toHaveLength(1);
    const redirect = redirects[0]!;
    // The streaming API's URL, built from the REST API and stage of the same template.
    const url = JSON.stringify(service.resource(redirect)!.Properties.Environment.Variables.STREAMING_API_URL);
    expect(url).toContain(`"Ref":"${streaming!.node.id}`);
    expect(url).toContain('.execute-api.');
    const integrations = Object.values(redirect.at.resources).filter(
      (r) =>
        r.Type === 'AWS::ApiGatewayV2::Integration' &&
        JSON.stringify(r.Properties.IntegrationUri).includes(redirect.id),
    );
    expect(integrations).toHaveLength(1);
    const outputs = service.root.template.toJSON().Outputs as Record<string, { Value: unknown }>;
    // Read from the live route stack: the REST API's id and stage, the only outputs a route stack has.
    const output = JSON.stringify(outputs.StreamingApiUrl?.Value);
    expect(output).toContain('.execute-api.');
    expect(output.match(/Outputs\.[A-Za-z0-9]*StreamingApi[A-Za-z0-9]*Ref/g)).toHaveLength(2);
  });
});
