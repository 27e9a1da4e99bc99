import {
  HttpIntegrationType,
  HttpRouteIntegration,
  IntegrationCredentials,
  PayloadFormatVersion,
  type HttpRouteIntegrationConfig,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';

/**
 * The role API Gateway assumes to invoke the functions of one template (each route stack has its
 * own, the parent one for `$default`, `/mcp` and the console), from the HTTP API or a streaming
 * REST API (infra/streaming-route.ts). CDK's HttpLambdaIntegration adds a
 * resource-based permission to every function instead: one CloudFormation resource per route.
 * Through this role a route costs three resources (function, integration, route); the role's
 * policy names each function's ARN, so the API can invoke those and nothing else in the account.
 * The functions are the role's neighbours in the template: no ARN crosses a stack boundary.
 */
export class ApiInvokeRole extends Construct {
  readonly role: Role;
  private readonly statement = new PolicyStatement({ actions: ['lambda:InvokeFunction'] });

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('apigateway.amazonaws.com'),
      description: 'Social network API: API Gateway invokes the route functions',
    });
    this.role.addToPrincipalPolicy(this.statement);
  }

  /** A Lambda proxy integration (payload 2.0) that invokes `fn` through this role. */
  integrationFor(id: string, fn: IFunction): HttpRouteIntegration {
    return new RoleInvokedLambdaIntegration(id, fn, IntegrationCredentials.fromRole(this.permit(fn)));
  }

  /** This role, allowed to invoke `fn` too (a REST API's integration uses it as its credentials). */
  permit(fn: IFunction): Role {
    // The function ARN itself, not `arn:…:*`: the integration invokes $LATEST, never a version or alias.
    this.statement.addResources(fn.functionArn);
    return this.role;
  }
}

class RoleInvokedLambdaIntegration extends HttpRouteIntegration {
  constructor(
    id: string,
    private readonly fn: IFunction,
    private readonly credentials: IntegrationCredentials,
  ) {
    super(id);
  }

  bind(): HttpRouteIntegrationConfig {
    return {
      type: HttpIntegrationType.AWS_PROXY,
      uri: this.fn.functionArn,
      payloadFormatVersion: PayloadFormatVersion.VERSION_2_0,
      credentials: this.credentials,
    };
  }
}
