import { auditTarget } from '../../shared/audit/write-context.js';
import { resolveActingProfile } from '../../shared/auth/acting-profile.js';
import { authorizeRoute } from '../../shared/auth/authenticate.js';
import { importRelations } from '../../shared/exports/import-relations.js';
import { httpHandler } from '../../shared/http/handler.js';
import { routes } from '../../shared/http/contract/routes/exports.js';

/** Acting as the path's profile; blocks and mutes also need `safety:write` of an API key. */
export const handler = httpHandler(routes.importRelations, async ({ params, body, auth, now }) => {
  if (body.blocks?.length || body.mutes?.length) authorizeRoute(auth.principal, 'credential', 'safety:write');
  const profile = await resolveActingProfile(auth.principal, params.profile_id, 'profile_editing');
  // Many follows, blocks and mutes: the import is the profile's, recorded once.
  auditTarget({ type: 'profile', id: profile.id });
  return importRelations(profile, body, now);
});
