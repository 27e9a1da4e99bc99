/**
 * The WebSocket side of the live events (API.md "Live"): each profile's events are published to
 * one AppSync Events channel, `/profiles/{profile_id}`, of the namespace `profiles`. The publisher
 * names the channel, the authoriser reads the profile back out of it. No AWS here.
 */

/** The channel namespace of the profiles' channels (its name is the channels' first segment). */
export const PROFILE_CHANNEL_NAMESPACE = 'profiles';

/** The channel a profile's events are published to. */
export const profileChannel = (profileId: string): string => `/${PROFILE_CHANNEL_NAMESPACE}/${profileId}`;

/**
 * The profile whose channel this is; undefined for any other path: another namespace, more or
 * fewer segments, or a wildcard (`/profiles/*` would be every profile's events).
 */
export function profileOfChannel(channel: string): string | undefined {
  const segments = channel.split('/');
  if (segments.length !== 3 || segments[0] !== '' || segments[1] !== PROFILE_CHANNEL_NAMESPACE) return undefined;
  const profileId = segments[2]!;
  return /^[A-Za-z0-9_-]+$/.test(profileId) ? profileId : undefined;
}
