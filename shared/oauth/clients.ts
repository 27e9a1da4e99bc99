/**
 * Who a `client_id` is: a client registered here (DCR), or a Client ID Metadata Document the id
 * is the URL of, fetched under the webhooks' outbound URL policy, at most 5 KB; a valid document
 * is kept for a few minutes per Lambda instance.
 */
import * as z from 'zod';
import { config } from '../config.js';
import { isMetadataDocumentClientId, redirectUriProblem } from '../domain/oauth.js';
import type { DocumentFetcher } from '../ports/document-fetcher.js';
import { undiciDocumentFetcher } from '../ports/outbound/undici-document-fetcher.js';
import { checkUrlSyntax } from '../ports/outbound/url-policy.js';
import { getOAuthClient } from '../store/oauth.js';
import { ClientName } from '../http/contract/schemas/oauth.js';

export interface OAuthClient {
  client_id: string;
  client_name: string;
  redirect_uris: string[];
}

export type ClientLookup = { ok: true; client: OAuthClient } | { ok: false; reason: string };

export const METADATA_DOCUMENT_MAX_BYTES = 5 * 1024;
const METADATA_DOCUMENT_TIMEOUT_MS = 5_000;
const CACHE_MS = 5 * 60_000;
const CACHE_MAX = 200;

const MetadataDocument = z.object({
  client_id: z.string(),
  client_name: ClientName.optional(),
  redirect_uris: z.array(z.string()).min(1).max(20),
});

const cache = new Map<string, { at: number; lookup: ClientLookup }>();

async function fetchMetadataDocument(clientId: string, fetcher: DocumentFetcher): Promise<ClientLookup> {
  const policy = config.webhookUrlPolicy;
  const syntax = checkUrlSyntax(clientId, policy);
  if (!syntax.ok) return { ok: false, reason: `client_id: ${syntax.reason}` };
  const fetched = await fetcher(clientId, {
    policy,
    maxBytes: METADATA_DOCUMENT_MAX_BYTES,
    timeoutMs: METADATA_DOCUMENT_TIMEOUT_MS,
  });
  if (!fetched.ok) return { ok: false, reason: `client_id: ${fetched.reason}` };
  if (fetched.status !== 200)
    return { ok: false, reason: `client_id: the metadata document answered ${fetched.status}` };
  let parsed: z.infer<typeof MetadataDocument>;
  try {
    parsed = MetadataDocument.parse(JSON.parse(fetched.body));
  } catch {
    return { ok: false, reason: 'client_id: the metadata document is not JSON with client_id and redirect_uris' };
  }
  if (parsed.client_id !== clientId)
    return { ok: false, reason: 'client_id: the metadata document names another client_id' };
  const bad = parsed.redirect_uris.map(redirectUriProblem).find(Boolean);
  if (bad) return { ok: false, reason: `client_id: the metadata document's redirect_uris: ${bad}` };
  return {
    ok: true,
    client: {
      client_id: clientId,
      client_name: parsed.client_name ?? new URL(clientId).host,
      redirect_uris: parsed.redirect_uris,
    },
  };
}

export async function lookUpClient(
  clientId: string,
  fetcher: DocumentFetcher = undiciDocumentFetcher,
): Promise<ClientLookup> {
  if (!isMetadataDocumentClientId(clientId)) {
    const registered = await getOAuthClient(clientId);
    return registered
      ? { ok: true, client: registered }
      : { ok: false, reason: 'client_id is not a registered client' };
  }
  const cached = cache.get(clientId);
  if (cached && Date.now() - cached.at < CACHE_MS) return cached.lookup;
  const lookup = await fetchMetadataDocument(clientId, fetcher);
  // Only documents that passed are kept: a client fixing its document is not refused for minutes.
  if (lookup.ok) {
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
    cache.set(clientId, { at: Date.now(), lookup });
  }
  return lookup;
}
