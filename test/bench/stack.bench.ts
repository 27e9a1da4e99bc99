/**
 * `npm run bench` (CloudFormation part): synthesises the stack as `cdk synth` does (bundling
 * skipped: it changes only asset hashes) and reports the resources of every template, the stack's
 * and each nested route stack's, against the goal, and how many routes the API can still add.
 */
import { routeList } from '../../shared/http/contract/route-table.js';
import {
  CLOUDFORMATION_RESOURCE_LIMIT,
  ROUTE_GROWTH_GOAL,
  routeHeadroom,
  routeRoom,
  TEMPLATE_RESOURCE_GOAL,
} from '../../infra/template-budget.js';
import { ServiceTemplates } from '../infra/service-templates.js';
import { printTable, verdict } from './support.js';

const templates = new ServiceTemplates();
const loads = templates.loads();

// What a route costs, read off the templates: the resources named after its constructs (Fn-<name>, Route-<name>).
const costPerRoute = Math.max(
  ...routeList.map((route) => {
    const at = templates.of(templates.stack.httpApi.routeFunctions.get(route.name)!);
    const own = new RegExp(`^(?:Fn|Route)${route.name}(?=[A-Z0-9])`);
    return Object.keys(at.resources).filter((id) => own.test(id)).length;
  }),
);
const routeStacks = loads.filter((load) => load.routes > 0);
const largest = loads.reduce((a, b) => (b.resources > a.resources ? b : a));
const tightest = routeStacks.reduce((a, b) => (routeRoom(b, costPerRoute) < routeRoom(a, costPerRoute) ? b : a));
const headroom = routeHeadroom(loads, costPerRoute);
const name = (path: string) => path.replace(/^SocialNetworkApi\/Http\//, '').replace(/^SocialNetworkApi$/, 'parent');

printTable(
  `Goal 4: resources per template (CloudFormation allows ${CLOUDFORMATION_RESOURCE_LIMIT}; ${routeList.length} routes at ${costPerRoute} resources each)`,
  ['measure', 'measured', 'goal', ''],
  [
    [
      'largest template',
      `${largest.resources} (${name(largest.path)}; ${loads.length} templates)`,
      `≤ ${TEMPLATE_RESOURCE_GOAL}`,
      verdict(
        largest.resources <= TEMPLATE_RESOURCE_GOAL,
        String(largest.resources),
        'more route stacks (infra/route-stacks.ts), or the largest construct in a nested stack of its own',
      ),
    ],
    [
      "more routes before a template passes the goal (spread as today's)",
      headroom,
      `≥ ${ROUTE_GROWTH_GOAL}`,
      verdict(headroom >= ROUTE_GROWTH_GOAL, String(headroom), 'more route stacks (infra/route-stacks.ts)'),
    ],
    [
      'more routes the fullest route stack takes on its own',
      `${routeRoom(tightest, costPerRoute)} (${name(tightest.path)})`,
      '',
      '',
    ],
  ],
);
printTable(
  'Templates (a new resource file of the route table adds a route stack and one resource to the parent)',
  ['template', 'resources', 'routes', `room to ${TEMPLATE_RESOURCE_GOAL}: resources`, 'routes', ''],
  loads.map((load) => [
    name(load.path),
    load.resources,
    load.routes,
    TEMPLATE_RESOURCE_GOAL - load.resources,
    load.routes > 0 ? routeRoom(load, costPerRoute) : '—',
    verdict(load.resources <= TEMPLATE_RESOURCE_GOAL, String(load.resources), 'move resources to another nested stack'),
  ]),
);
