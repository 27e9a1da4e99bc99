/**
 * The route table: every resource's routes, spread in one object. The CDK stack makes one Lambda
 * and one API Gateway route of each entry, the local server dispatches from it, and the OpenAPI
 * document is generated from it. A handler imports only its own resource's `routes.ts`, so its
 * bundle carries those schemas and not every route's.
 */
import { routes as comments } from './comments/routes.js';
import { routes as events } from './events/routes.js';
import { routes as follows } from './follows/routes.js';
import { routes as identity } from './identity/routes.js';
import { routes as messages } from './messages/routes.js';
import { routes as posts } from './posts/routes.js';
import { routes as profileAccess } from './profile-access/routes.js';
import { routes as profiles } from './profiles/routes.js';
import { routes as system } from './system/routes.js';
import { routes as webhooks } from './webhooks/routes.js';
import { routes as workspaces } from './workspaces/routes.js';

// The order is the OpenAPI document's order.
export const routes = {
  ...system,
  ...identity,
  ...workspaces,
  ...profiles,
  ...posts,
  ...comments,
  ...follows,
  ...messages,
  ...profileAccess,
  ...events,
  ...webhooks,
};

export type RouteName = keyof typeof routes;
export const routeList = Object.entries(routes).map(([name, route]) => ({ name: name as RouteName, ...route }));
