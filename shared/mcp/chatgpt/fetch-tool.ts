/**
 * `fetch({ id })` → `{ id, title, text, url, metadata }`, the fetch tool ChatGPT's connectors and
 * deep research call on a search result: a post through the post read, a profile through the
 * profile read, by the id's prefix.
 */
import * as z from 'zod';
import type { Outcome, ToolError } from '../call.js';
import { defineCompositeTool } from '../composite.js';
import { FetchedDocument, parseDocumentId, postDocument, profileDocument } from './documents.js';

const ID_HINT = 'Pass an id exactly as search returned it: post:<uuid> or profile:<uuid>.';

/** A read's error, with a hint on what to do next when the document is not there (any more). */
const readFailed = (error: ToolError, kind: string): Outcome<never> => ({
  ok: false,
  error:
    error.error_code === 'not_found'
      ? {
          ...error,
          hint: `The ${kind} does not exist, was removed, or is hidden from the acting profile: search again for current ids.`,
        }
      : error,
});

export const fetchTool = defineCompositeTool({
  name: 'fetch',
  title: 'Fetch a post or profile',
  description:
    'Reads one search result by its id (post:<uuid> or profile:<uuid>): the post body, or the profile name, username ' +
    'and bio, with its URL and metadata (author, dates, counts). Blocks of the acting profile apply.',
  toolset: 'search',
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    id: z.string().min(1).max(100).meta({ description: 'A result id from search: post:<uuid> or profile:<uuid>.' }),
  }),
  output: FetchedDocument,
  routes: ['getPost', 'getProfile'],
  async run({ id }, { call, baseUrl }): Promise<Outcome<FetchedDocument>> {
    const document = parseDocumentId(id);
    if (!document)
      return {
        ok: false,
        error: {
          error_code: 'invalid_request',
          error_message: `${JSON.stringify(id)} is no post or profile id.`,
          hint: ID_HINT,
        },
      };
    if (document.kind === 'post') {
      const read = await call('getPost', { post_id: document.id });
      return read.ok ? { ok: true, data: postDocument(baseUrl, read.data) } : readFailed(read.error, 'post');
    }
    const read = await call('getProfile', { profile_id: document.id });
    return read.ok ? { ok: true, data: profileDocument(baseUrl, read.data) } : readFailed(read.error, 'profile');
  },
});
