/**
 * A scope in a sentence, for the person approving an app (the consent page, Connected apps):
 * `posts:write` says what the app could do, not what the API calls it.
 */
const WHAT: Record<string, string> = {
  profiles: 'profiles (names, bios, avatars)',
  posts: 'posts, replies and reactions to them',
  comments: 'comments',
  follows: 'who the profiles follow',
  messages: 'private messages',
  profile_access: 'who else may manage the profiles',
  media: 'uploaded images',
  safety: 'blocks, mutes and reports',
  notifications: 'notifications',
};

const HOW: Record<string, string> = {
  read: 'Read',
  write: 'Create, change and delete',
  all: 'Read, create, change and delete',
};

export function scopeSentence(scope: string): string {
  const [resource = '', action = ''] = scope.split(':');
  const how = HOW[action];
  if (!how) return scope;
  if (resource === 'all') return `${how} everything the chosen profiles can, on every part of the network.`;
  const what = WHAT[resource];
  return what ? `${how} the chosen profiles' ${what}.` : scope;
}
