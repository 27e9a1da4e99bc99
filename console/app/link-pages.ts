/**
 * The console pages a mail links to, and the local Mail page: real paths under /console (a mail's
 * link is `/console/verify-email?token=…`), where every other page is a fragment of /console. The
 * server serves the console's page at each (console/server/build-assets.ts); they need no session.
 */
export const LINK_PAGES = ['verify-email', 'reset-password', 'mail'] as const;
export type LinkPage = (typeof LINK_PAGES)[number];

/** The link page a path shows (`/console/mail`, or under a gateway stage `/prod/console/mail`), if any. */
export function linkPageOf(pathname: string): LinkPage | undefined {
  const last = /\/console\/([a-z-]+)$/.exec(pathname)?.[1];
  return LINK_PAGES.find((page) => page === last);
}
