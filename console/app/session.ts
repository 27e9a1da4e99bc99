import { createClient } from '@social-network/sdk';
import { linkPageOf } from './link-pages.js';

const TOKEN_KEY = 'console.session';

/**
 * The session token lives in localStorage: it survives a reload and reaches every tab of this
 * origin, so a new tab needs no new login (and scripted logins do not run into the per-email
 * limit). It is never written to a cookie, so other sites cannot make the browser send it; a
 * script on this origin could read it from sessionStorage just the same, and the content security
 * policy allows only this origin's scripts. Logging out removes it, which every other tab hears.
 */
export const session = {
  token: (): string | undefined => localStorage.getItem(TOKEN_KEY) ?? undefined,
  save: (token: string) => localStorage.setItem(TOKEN_KEY, token),
  clear: () => localStorage.removeItem(TOKEN_KEY),
};

/** The API's base URL: the same origin as the console, one level up from /console (two from a link page, /console/mail). */
export const apiBase = new URL(linkPageOf(location.pathname) ? '..' : '.', location.href).href.replace(/\/$/, '');

export const api = createClient({
  baseUrl: apiBase,
  sessionToken: session.token,
});

/** Sent when the API refuses the session (expired, revoked, logged out elsewhere). */
export const SIGNED_OUT_EVENT = 'console:signed-out';
/** Sent when another tab of this browser logged in. */
export const SIGNED_IN_EVENT = 'console:signed-in';

// Another tab logged out (the token is gone) or in (a token appeared): this tab follows at once.
addEventListener('storage', (event) => {
  if (event.key !== TOKEN_KEY && event.key !== null) return;
  dispatchEvent(new Event(session.token() ? SIGNED_IN_EVENT : SIGNED_OUT_EVENT));
});

api.use({
  async onResponse({ request, response }) {
    // Only `unauthorized` is about the session: a wrong password or code asked again (`401
    // invalid_credentials`, on the Security page) leaves it as it is.
    if (response.status === 401 && request.headers.has('authorization')) {
      const body = (await response.clone().json()) as { error_code?: string };
      if (body.error_code === 'unauthorized') {
        session.clear();
        dispatchEvent(new Event(SIGNED_OUT_EVENT));
      }
    }
    return response;
  },
});
