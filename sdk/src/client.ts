import createFetchClient, { type Client } from 'openapi-fetch';
import type { paths } from './openapi-types.js';

/** A value given once, or a function read on every request (a session token that comes and goes). */
type Live<T> = T | (() => T | undefined);

/** The credential, sent as `Authorization: Bearer`: an API key or a user's session token, not both. */
type Credential =
  | { /** An API key (sk_…). */ apiKey?: Live<string>; sessionToken?: never }
  | { /** A session token (st_…) from POST /v1/sessions. */ sessionToken?: Live<string>; apiKey?: never };

export type ClientOptions = Credential & {
  /** Where the API is, e.g. `http://127.0.0.1:3000`; '' for the origin that served the page. */
  baseUrl: string;
  /** The profile to act as, sent as `X-Profile-Id` on every request that does not set its own. */
  profileId?: Live<string>;
  fetch?: typeof globalThis.fetch;
};

/** The client of every path and operation in the OpenAPI document. */
export type ApiClient = Client<paths>;

type ProfileOptional<H> = Omit<H, 'x-profile-id'> & { 'x-profile-id'?: string };
type ActingParameters<P> = P extends { header: infer H }
  ? 'x-profile-id' extends keyof H
    ? // The header object itself becomes optional when the acting profile was its only required entry.
      Record<string, never> extends Omit<H, 'x-profile-id'>
      ? Omit<P, 'header'> & { header?: ProfileOptional<H> }
      : Omit<P, 'header'> & { header: ProfileOptional<H> }
    : P
  : P;
type ActingOperation<Op> = Op extends { parameters: infer P }
  ? Omit<Op, 'parameters'> & { parameters: ActingParameters<P> }
  : Op;

/** The document's paths with `X-Profile-Id` optional, for a client that sends a default profile. */
export type ActingPaths = {
  [Path in keyof paths]: { [Method in keyof paths[Path]]: ActingOperation<paths[Path][Method]> };
};

/** A client created with a `profileId`: calls may leave out the `x-profile-id` header, or set it to act as another profile. */
export type ActingClient = Client<ActingPaths>;

const read = (value: Live<string> | undefined): string | undefined => (typeof value === 'function' ? value() : value);

/**
 * An openapi-fetch client of the API: paths, parameters, bodies and responses are checked by
 * TypeScript. Answers come back as openapi-fetch's `{ data, error, response }`; `unwrap` turns
 * them into the envelope's `data` or an `ApiProblem`.
 */
export function createClient(options: ClientOptions & { profileId: Live<string> }): ActingClient;
export function createClient(options: ClientOptions): ApiClient;
export function createClient(options: ClientOptions): ApiClient | ActingClient {
  const client = createFetchClient<paths>({ baseUrl: options.baseUrl, fetch: options.fetch });
  client.use({
    onRequest({ request }) {
      const credential = read(options.apiKey ?? options.sessionToken);
      if (credential) request.headers.set('authorization', `Bearer ${credential}`);
      const profileId = read(options.profileId);
      if (profileId && !request.headers.has('x-profile-id')) request.headers.set('x-profile-id', profileId);
      return request;
    },
  });
  return client;
}
