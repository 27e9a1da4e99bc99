import { createClient } from '@social-network/sdk';

const TOKEN_KEY = 'console.session';

/**
 * The session token lives in sessionStorage: it survives a reload but leaves with the tab, and it
 * is never written to a cookie, so other sites cannot make the browser send it.
 */
export const session = {
  token: (): string | undefined => sessionStorage.getItem(TOKEN_KEY) ?? undefined,
  save: (token: string) => sessionStorage.setItem(TOKEN_KEY, token),
  clear: () => sessionStorage.removeItem(TOKEN_KEY),
};

/** The API is served from the same origin as the console, one level up from /console. */
export const api = createClient({
  baseUrl: new URL('.', location.href).href.replace(/\/$/, ''),
  sessionToken: session.token,
});

/** Sent when the API refuses the session (expired, revoked, logged out elsewhere). */
export const SIGNED_OUT_EVENT = 'console:signed-out';

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
