import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_ROUTE_PATHS } from '../../infra/console.js';
import { stackSettings } from '../../infra/settings.js';
import { SocialNetworkStack } from '../../infra/stack.js';

type Resource = { Type: string; Properties: Record<string, any> };

describe('CDK stack: web console and API reference', () => {
  let stack: SocialNetworkStack;
  let resources: Record<string, Resource>;
  let consoleFnId: string;
  beforeAll(() => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    stack = new SocialNetworkStack(app, 'SocialNetworkApi', stackSettings(app));
    resources = Template.fromStack(stack).toJSON().Resources;
    consoleFnId = stack.getLogicalId(stack.console.fn.node.defaultChild as never);
  });

  const routesTo = (routeKey: string) =>
    Object.values(resources).filter((r) => r.Type === 'AWS::ApiGatewayV2::Route' && r.Properties.RouteKey === routeKey);

  it("routes GET /console, /docs and everything under them to the console function, on the API's gateway", () => {
    const apiId = stack.getLogicalId(stack.httpApi.api.node.defaultChild as never);
    for (const path of CONSOLE_ROUTE_PATHS) {
      const [route, ...others] = routesTo(`GET ${path}`);
      expect(others, path).toEqual([]);
      expect(route!.Properties.ApiId).toEqual({ Ref: apiId });
      const integrationId = route!.Properties.Target['Fn::Join'][1][1].Ref as string;
      expect(resources[integrationId]!.Properties).toMatchObject({
        IntegrationType: 'AWS_PROXY',
        PayloadFormatVersion: '2.0',
        IntegrationUri: { 'Fn::GetAtt': [consoleFnId, 'Arn'] },
      });
    }
    expect(CONSOLE_ROUTE_PATHS.every((path) => !path.startsWith('/v1'))).toBe(true);
  });

  it('serves the files from a layer it unpacks under /opt, with no access to the table beyond the no-data class (counting requests)', () => {
    const fn = resources[consoleFnId]!;
    expect(fn.Properties.Environment.Variables.CONSOLE_ASSETS_DIR).toBe('/opt/console-assets');
    const [layer] = fn.Properties.Layers as { Ref: string }[];
    expect(resources[layer!.Ref]).toMatchObject({
      Type: 'AWS::Lambda::LayerVersion',
      Properties: { CompatibleArchitectures: ['arm64'] },
    });
    expect(fn.Properties).toMatchObject({ Runtime: 'nodejs24.x', Architectures: ['arm64'] });

    const roleId = fn.Properties.Role['Fn::GetAtt'][0] as string;
    const statements = Object.values(resources)
      .filter(
        (r) =>
          r.Type === 'AWS::IAM::Policy' && r.Properties.Roles.some((role: { Ref?: string }) => role.Ref === roleId),
      )
      .flatMap((r) => r.Properties.PolicyDocument.Statement as { Action: string | string[]; Condition?: unknown }[]);
    const data = statements.filter((s) => [s.Action].flat().some((action) => action.startsWith('dynamodb:')));
    // The shared no-data role may only update rate-limit window items (infra/function-roles.ts).
    expect(data).toEqual([
      expect.objectContaining({
        Action: 'dynamodb:UpdateItem',
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['RATELIMIT#*'] } },
      }),
    ]);
  });

  it('outputs the console URL', () => {
    const outputs = Template.fromStack(stack).toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(JSON.stringify(outputs.ConsoleUrl?.Value)).toContain('console');
  });
});
