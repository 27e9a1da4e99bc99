/** Checks of what a caller sends for an endpoint, answering `invalid_request` / `forbidden` with the field named. */
import { config } from '../config.js';
import type { ProfileRecord } from '../domain/entities.js';
import { AppError } from '../errors.js';
import { normalizeUrl } from '../ports/outbound/url-policy.js';
import { getProfiles } from '../store/profiles.js';

/** The URL to store (normalised), if the outbound URL policy allows it. */
export function allowedUrl(url: string): string {
  const check = normalizeUrl(url, config.webhookUrlPolicy);
  if (!check.ok)
    throw new AppError('invalid_request', { message: 'Invalid body.url.', hint: `body.url: ${check.reason}.` });
  return check.url.href;
}

/** Every id must be a profile of this workspace; unknown and foreign ids answer alike. */
export async function assertWorkspaceProfiles(
  workspaceId: string,
  ids: readonly string[],
): Promise<Map<string, ProfileRecord>> {
  const profiles = await getProfiles(ids);
  const foreign = ids.filter((id) => profiles.get(id)?.workspace_id !== workspaceId);
  if (foreign.length > 0) {
    throw new AppError('forbidden', {
      message: 'Every profile_ids entry must be a profile of this workspace.',
      hint: `body.profile_ids: ${foreign.length} of the ids are not profiles of this workspace; available_profiles of GET .../webhook-endpoints lists them.`,
    });
  }
  return profiles;
}
