import { useEffect, useState } from 'preact/hooks';

/** The console's pages, addressed by the URL fragment so that /console is the only HTML path. */
export type Route =
  | { page: 'login' }
  | { page: 'signup' }
  | { page: 'workspaces' }
  | { page: 'endpoints'; workspaceId: string }
  | { page: 'new-endpoint'; workspaceId: string }
  | { page: 'endpoint'; workspaceId: string; endpointId: string }
  | { page: 'activity'; workspaceId: string }
  | { page: 'delivery'; workspaceId: string; deliveryId: string }
  | { page: 'moderation' }
  | { page: 'security' }
  | { page: 'account' }
  | { page: 'oauth-consent'; query: string }
  | { page: 'apps'; workspaceId: string }
  | { page: 'profiles'; workspaceId: string }
  | { page: 'api-keys'; workspaceId: string }
  | { page: 'audit-log'; workspaceId: string };

/** Where GET /oauth/authorize sends the browser: the consent page, the request's query after `?`. */
const CONSENT = /^#\/oauth\/authorize\?(.*)$/;

export function parseRoute(hash: string): Route {
  const consent = CONSENT.exec(hash);
  if (consent) return { page: 'oauth-consent', query: consent[1]! };
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  const [first, workspaceId, section, id] = parts;
  if (first === 'login') return { page: 'login' };
  if (first === 'signup') return { page: 'signup' };
  if (first === 'moderation') return { page: 'moderation' };
  if (first === 'security') return { page: 'security' };
  if (first === 'account') return { page: 'account' };
  if (first !== 'w' || !workspaceId) return { page: 'workspaces' };
  if (section === 'endpoints' && id === 'new') return { page: 'new-endpoint', workspaceId };
  if (section === 'endpoints' && id) return { page: 'endpoint', workspaceId, endpointId: id };
  if (section === 'activity') return { page: 'activity', workspaceId };
  if (section === 'deliveries' && id) return { page: 'delivery', workspaceId, deliveryId: id };
  if (section === 'apps') return { page: 'apps', workspaceId };
  if (section === 'profiles') return { page: 'profiles', workspaceId };
  if (section === 'api-keys') return { page: 'api-keys', workspaceId };
  if (section === 'audit-log') return { page: 'audit-log', workspaceId };
  return { page: 'endpoints', workspaceId };
}

export function href(route: Route): string {
  switch (route.page) {
    case 'login':
      return '#/login';
    case 'signup':
      return '#/signup';
    case 'workspaces':
      return '#/';
    case 'endpoints':
      return `#/w/${route.workspaceId}/endpoints`;
    case 'new-endpoint':
      return `#/w/${route.workspaceId}/endpoints/new`;
    case 'endpoint':
      return `#/w/${route.workspaceId}/endpoints/${route.endpointId}`;
    case 'activity':
      return `#/w/${route.workspaceId}/activity`;
    case 'delivery':
      return `#/w/${route.workspaceId}/deliveries/${route.deliveryId}`;
    case 'moderation':
      return '#/moderation';
    case 'security':
      return '#/security';
    case 'account':
      return '#/account';
    case 'oauth-consent':
      return `#/oauth/authorize?${route.query}`;
    case 'apps':
      return `#/w/${route.workspaceId}/apps`;
    case 'profiles':
      return `#/w/${route.workspaceId}/profiles`;
    case 'api-keys':
      return `#/w/${route.workspaceId}/api-keys`;
    case 'audit-log':
      return `#/w/${route.workspaceId}/audit-log`;
  }
}

export const navigate = (route: Route) => {
  location.hash = href(route);
};

/** Goes to `route` in place of the current page, so that Back does not return to it. */
export const redirect = (route: Route) => {
  location.replace(href(route));
};

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const update = () => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', update);
    return () => removeEventListener('hashchange', update);
  }, []);
  return route;
}
