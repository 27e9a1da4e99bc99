import { NestedStack } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { ApiInvokeRole } from './api-invoke-role.js';

/**
 * The nested stack a route's resources (function, integration, route) live in: one per resource,
 * named after the folder of the route's handler (`functions/<resource>/<verb>-<noun>.ts`), which
 * the route table states. Adding a route to a resource never moves another route, so no route key
 * is ever created in one stack while another still holds it (API Gateway refuses a second route
 * with the same key, and CloudFormation deletes the old one only after creating the new one).
 */
export const routeGroupOf = (route: { handler: string }): string => route.handler.split('/')[0]!;

/** Construct id of a resource's route stack (and so of its template and its resource in the parent). */
export const routeStackId = (group: string) => `Routes-${group}`;

/**
 * One resource's routes in a template of their own: each route costs three resources (function,
 * integration, route) and the stack two more (API Gateway's invoke role and its policy), so a
 * template stays far below CloudFormation's limit however many routes the API grows.
 * What crosses into it from the parent are parameters CDK derives from references: the API id,
 * the table name, the shared log group, the execution roles of its functions, and for a route with
 * grants beyond the table what those name (the deliveries queue, the uploads bucket). Nothing goes
 * back up: the parent reads no output of a route stack.
 */
export class RouteStack extends NestedStack {
  /** What API Gateway invokes this stack's functions through (a role of the stack's own). */
  readonly invoker: ApiInvokeRole;

  constructor(scope: Construct, group: string) {
    super(scope, routeStackId(group), { description: `Social network API: the ${group} routes` });
    this.invoker = new ApiInvokeRole(this, 'Invoker');
  }
}
