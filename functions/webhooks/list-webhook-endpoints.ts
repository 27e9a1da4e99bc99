import { requireOwnerOrAdmin } from '../../shared/auth/workspace-access.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentProfile } from '../../shared/http/present/profiles.js';
import { presentWebhooks } from '../../shared/http/present/webhooks.js';
import { allWorkspaceProfiles, listWorkspaceEndpoints } from '../../shared/store/webhook-endpoints.js';
import { endpointProfiles } from '../../shared/webhooks/workspace-endpoints.js';
import { routes } from '../../shared/http/contract/routes/webhooks.js';

export const handler = httpHandler(routes.listWebhookEndpoints, async ({ params, auth }) => {
  const membership = await requireOwnerOrAdmin(auth.principal, params.workspace_id);
  const [endpoints, profiles] = await Promise.all([
    listWorkspaceEndpoints(params.workspace_id),
    allWorkspaceProfiles(params.workspace_id),
  ]);
  const endpointsProfiles = await endpointProfiles(endpoints);
  return {
    workspace: { id: params.workspace_id, name: membership.workspace_name },
    available_profiles: profiles.map(presentProfile),
    items: endpoints.map((endpoint) => presentWebhooks.endpoint(endpoint, endpointsProfiles)),
  };
});
