/** DocumentFetcher port: one small GET under the outbound URL policy (OAuth client metadata documents). */
import type { UrlPolicy } from '../config.js';

export type FetchedDocument = { ok: true; status: number; body: string } | { ok: false; reason: string };

export type DocumentFetcher = (
  url: string,
  options: { policy: UrlPolicy; maxBytes: number; timeoutMs: number },
) => Promise<FetchedDocument>;
