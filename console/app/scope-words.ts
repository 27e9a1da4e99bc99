import type { Schemas } from '@social-network/sdk';

/** The API's scopes, as the typed client knows them (from the contract's one list). */
export type Scope = Schemas['ApiKey']['scopes'][number];
type ResourceOf<S> = S extends `${infer R}:${string}` ? R : never;
type ActionOf<S> = S extends `${string}:${infer A}` ? A : never;
type Resource = Exclude<ResourceOf<Scope>, 'all'>;
type Action = ActionOf<Scope>;

/**
 * A scope in a sentence, for the person approving an app or creating an API key (the consent
 * page, Connected apps, API keys): `posts:write` says what the holder could do, not what the API
 * calls it. Keyed by the contract's resources, so a new resource fails the typecheck until it has words.
 */
const WHAT: Record<Resource, string> = {
  profiles: 'profiles (names, bios, avatars)',
  posts: 'posts, replies and reactions to them',
  comments: 'comments',
  follows: 'follows (whom they follow)',
  messages: 'private messages',
  profile_access: 'access grants (who else may manage them)',
  media: 'uploaded images',
  safety: 'blocks, mutes and reports',
  notifications: 'notifications',
  events: 'live events (notifications, messages and feed arrivals as they happen)',
};

const HOW: Record<Action, string> = {
  read: 'Read',
  write: 'Create, change and delete',
  all: 'Read, create, change and delete',
};

export function scopeSentence(scope: string): string {
  const [resource = '', action = ''] = scope.split(':');
  const how = HOW[action as Action] as string | undefined;
  if (!how) return scope;
  if (resource === 'all') return `${how} everything the chosen profiles can, on every part of the network.`;
  const what = WHAT[resource as Resource] as string | undefined;
  return what ? `${how} the chosen profiles' ${what}.` : scope;
}

/** Every scope, resource by resource and `all:*` last: the choices of the API key form. */
export const SCOPE_CHOICES: Scope[] = [...(Object.keys(WHAT) as Resource[]), 'all' as const].flatMap((resource) =>
  (Object.keys(HOW) as Action[]).map((action) => `${resource}:${action}` as const),
);
