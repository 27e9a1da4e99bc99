/**
 * The route table: every resource's routes, spread in one object. The CDK stack makes one Lambda
 * and one API Gateway route of each entry, the local server dispatches from it, and the OpenAPI
 * document is generated from it. A handler imports only its own resource's module under routes/,
 * so its bundle carries those schemas and not every route's.
 */
import { routes as comments } from './routes/comments.js';
import { routes as email } from './routes/email.js';
import { routes as passwordResets } from './routes/password-resets.js';
import { routes as events } from './routes/events.js';
import { routes as exports } from './routes/exports.js';
import { routes as feed } from './routes/feed.js';
import { routes as follows } from './routes/follows.js';
import { routes as identity } from './routes/identity.js';
import { routes as media } from './routes/media.js';
import { routes as oauth } from './routes/oauth.js';
import { routes as operators } from './routes/operators.js';
import { routes as passkeys } from './routes/passkeys.js';
import { routes as messages } from './routes/messages.js';
import { routes as conversations } from './routes/conversations.js';
import { routes as posts } from './routes/posts.js';
import { routes as profileAccess } from './routes/profile-access.js';
import { routes as profiles } from './routes/profiles.js';
import { routes as system } from './routes/system.js';
import { routes as webhooks } from './routes/webhooks.js';
import { routes as workspaces } from './routes/workspaces.js';
import { routes as reports } from './routes/reports.js';
import { routes as moderation } from './routes/moderation.js';
import { routes as notifications } from './routes/notifications.js';
import { routes as safety } from './routes/safety.js';
import { routes as search } from './routes/search.js';
import { routes as security } from './routes/security.js';
import { routes as threads } from './routes/threads.js';

// The order is the OpenAPI document's order.
export const routes = {
  ...system,
  ...identity,
  ...email,
  ...passwordResets,
  ...security,
  ...exports,
  ...passkeys,
  ...workspaces,
  ...profiles,
  ...operators,
  ...posts,
  ...feed,
  ...media,
  ...comments,
  ...follows,
  ...messages,
  ...conversations,
  ...profileAccess,
  ...events,
  ...webhooks,
  ...reports,
  ...moderation,
  ...notifications,
  ...safety,
  ...search,
  ...threads,
  ...oauth,
};

export type RouteName = keyof typeof routes;
export const routeList = Object.entries(routes).map(([name, route]) => ({ name: name as RouteName, ...route }));
