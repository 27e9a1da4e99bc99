/**
 * Disclosure (API.md "Accountable agents"): every post, comment and message says whether an agent
 * wrote it and through which credential. Stamped at write time from the author and the request's
 * principal, never from the request body, so nobody can set or unset it.
 */
import type { ProfileRecord } from './entities.js';

export type ViaKind = 'session' | 'api_key' | 'oauth';

/** How it was written: the credential of the request; for OAuth the connected app. */
export interface Via {
  kind: ViaKind;
  client_id?: string;
  client_name?: string;
}

export interface Disclosure {
  /** True when the author is an `agent` profile. */
  automated: boolean;
  via: Via;
}

/** The part of a principal the stamp reads (kept structural so the domain imports no auth code). */
export type Credential =
  { kind: 'session' } | { kind: 'api_key'; oauth?: { clientId: string; clientName: string } | undefined };

export const viaOf = (credential: Credential): Via =>
  credential.kind === 'session'
    ? { kind: 'session' }
    : credential.oauth
      ? { kind: 'oauth', client_id: credential.oauth.clientId, client_name: credential.oauth.clientName }
      : { kind: 'api_key' };

/** Whether what `profile` does is automated: it is an agent. Stamped on posts, comments, messages, likes and follows. */
export const isAutomated = (profile: Pick<ProfileRecord, 'type'>): boolean => profile.type === 'agent';

export const disclosureOf = (author: Pick<ProfileRecord, 'type'>, credential: Credential): Disclosure => ({
  automated: isAutomated(author),
  via: viaOf(credential),
});

/** `authors=` on feed, search and thread replies: `humans` is every author that is not an agent. */
export const AUTHOR_FILTERS = ['all', 'humans', 'agents'] as const;
export type AuthorFilter = (typeof AUTHOR_FILTERS)[number];

export const authoredBy = (filter: AuthorFilter, item: { automated: boolean }): boolean =>
  filter === 'all' || (filter === 'agents') === item.automated;
