/** Your data is yours: the export of an account's archive, and the import of its follows, blocks and mutes (API.md). */
import { defineRoute } from '../route.js';
import { PageQuery, page } from '../schemas/common.js';
import { Export, ExportAnswer, ExportParams, ImportBody, ImportParams, ImportResult } from '../schemas/exports.js';

export const routes = {
  createExport: defineRoute({
    method: 'POST',
    path: '/v1/me/exports',
    handler: 'exports/create-export',
    tag: 'Your data',
    summary: 'Asks for an archive of your data (a ZIP); a mail says when it is ready to download.',
    description:
      "Starts a job that writes a ZIP archive of the account: `README.txt`, `account.json`, and for every workspace you own its profiles (`profiles/<username>/`: profile, posts with their history and drafts, comments, following, followers, blocks, mutes, messages, notifications, media with their files) and `workspaces/<id>/` (webhook endpoints, API keys), every object in this API's own shapes and no secret. Poll `GET /v1/me/exports/{export_id}` (or wait for the mail) until `status` is `ready`, then download `download_url` within 7 days. One export at a time: another while one is `pending` is `409 invalid_state`.",
    auth: 'session',
    status: 201,
    response: ExportAnswer,
    errors: ['invalid_state'],
  }),
  getExport: defineRoute({
    method: 'GET',
    path: '/v1/me/exports/{export_id}',
    handler: 'exports/get-export',
    tag: 'Your data',
    summary: 'One of your exports: its status and, once ready, a download URL valid until expires_at.',
    auth: 'session',
    params: ExportParams,
    status: 200,
    response: ExportAnswer,
    errors: ['not_found'],
  }),
  listExports: defineRoute({
    method: 'GET',
    path: '/v1/me/exports',
    handler: 'exports/list-exports',
    tag: 'Your data',
    summary: 'Your exports, newest first (kept about 8 days).',
    auth: 'session',
    query: PageQuery,
    status: 200,
    response: page(Export),
    errors: [],
  }),
  importRelations: defineRoute({
    method: 'POST',
    path: '/v1/profiles/{profile_id}/imports',
    handler: 'exports/import-relations',
    tag: 'Your data',
    summary: "Imports an archive's following.json, blocks.json and mutes.json into a profile (idempotent).",
    description:
      "Acting as `profile_id`. Each list is an archive file's array; entries are matched by `profile_id`, then by `username` (at most 10,000 entries in all; more, or a malformed entry, is `400` and changes nothing). Blocks are written first (a block ends follows both ways), then mutes, then follows (a follow across a block is skipped and not counted). The counts are of the entries the profile follows, blocks and mutes after the import, new or already, so importing again answers the same counts and changes nothing. An API key needs `follows:write`, and `safety:write` too when `blocks` or `mutes` is sent.",
    auth: 'credential',
    scope: 'follows:write',
    params: ImportParams,
    body: ImportBody,
    status: 200,
    response: ImportResult,
    errors: ['profile_not_permitted', 'insufficient_scope'],
    // Not a tool: a one-time act whose body is whole archive files (up to 10,000 entries), not a model's call.
    mcp: false,
  }),
};
