/** CloudFormation's limit of resources per template (a stack or a nested stack). */
export const CLOUDFORMATION_RESOURCE_LIMIT = 500;

/**
 * What any one template of the service may use of that limit (60 %): the rest is the margin for
 * whatever a new pipeline or a change of CDK adds that nobody counted. A test holds every template
 * to it, and `npm run bench` prints each template against it.
 */
export const TEMPLATE_RESOURCE_GOAL = 300;

/** Routes the API must be able to add, spread over its resources as today's are, with every template within the goal. */
export const ROUTE_GROWTH_GOAL = 100;

/** One synthesised template as the budget sees it. */
export interface TemplateLoad {
  /** Construct path of its stack (`SocialNetworkApi`, `SocialNetworkApi/Http/Routes-posts`, …). */
  path: string;
  resources: number;
  /** Routes of the route table whose resources live in it. */
  routes: number;
}

/** Routes a template can still take at `costPerRoute` each before it passes the goal. */
export function routeRoom(template: TemplateLoad, costPerRoute: number, goal = TEMPLATE_RESOURCE_GOAL): number {
  return Math.max(0, Math.floor((goal - template.resources) / costPerRoute));
}

/**
 * How many more routes fit before some template passes the goal, if new routes join the
 * templates in the proportions of today's route table (a resource with a fifth of the routes gets
 * a fifth of the new ones). A template with r of the R routes takes ⌈n·r/R⌉ of n new routes, which
 * stays within its room while n·r/R ≤ room, so the answer is the smallest ⌊room·R/r⌋. Templates
 * without routes (the parent) do not grow with routes.
 */
export function routeHeadroom(
  templates: readonly TemplateLoad[],
  costPerRoute: number,
  goal = TEMPLATE_RESOURCE_GOAL,
): number {
  const total = templates.reduce((sum, t) => sum + t.routes, 0);
  let headroom = Number.POSITIVE_INFINITY;
  for (const template of templates) {
    if (template.routes === 0) continue;
    headroom = Math.min(headroom, Math.floor((routeRoom(template, costPerRoute, goal) * total) / template.routes));
  }
  return headroom;
}
