/** The media routes: method, path, auth, schemas and the errors each can answer with. */
import * as z from 'zod';
import { MEDIA_UPLOAD_TTL_SECONDS } from '../../../domain/media.js';
import { defineRoute } from '../route.js';
import { CreateMediaBody, CreatedMedia, Media, MediaIdParams } from '../schemas/media.js';

const permissions =
  'Acting through an access grant needs `profile_editing` for an avatar or banner, `posting` for a post image.';

/**
 * Neither is an MCP tool: the upload itself is a multipart POST of the file's bytes to the form's
 * URL, which no tool call can carry, so an agent uploads over HTTP (its key needs the media scope)
 * and passes the media id to the tools that take one.
 */
export const routes = {
  createMedia: defineRoute({
    method: 'POST',
    path: '/v1/media',
    handler: 'media/create-media',
    tag: 'Media',
    summary: 'Starts an upload for the acting profile: a media awaiting its file, and the form to upload it with.',
    description:
      `Then POST \`upload.url\` as \`multipart/form-data\`: every entry of \`upload.fields\` as given, then the file as \`file\` (last), within ${MEDIA_UPLOAD_TTL_SECONDS / 60} minutes. ` +
      'The storage enforces the signed policy: exactly this key and content type, 1..content_length bytes, the expiry; ' +
      'an upload that breaks it is refused and not stored (the media stays `awaiting_upload`). ' +
      'Follow the processing with GET /v1/media/{media_id}. Media never attached to a profile or post within 24 hours is deleted with its files. ' +
      permissions,
    auth: 'credential',
    scope: 'media:write',
    actingProfile: { required: true },
    body: CreateMediaBody,
    status: 201,
    response: CreatedMedia,
    idempotent: true,
    errors: ['unsupported_media_type', 'payload_too_large'],
    mcp: false,
  }),
  getMedia: defineRoute({
    method: 'GET',
    path: '/v1/media/{media_id}',
    handler: 'media/get-media',
    tag: 'Media',
    summary: 'Reads a media: its processing status, and once ready its URLs and size.',
    description:
      'For a credential that may act as the media’s profile (404 to anyone else; no X-Profile-Id needed). ' +
      'While `awaiting_upload` or `processing` the answer carries `Retry-After: 1`: poll until `ready` or `failed`. ' +
      permissions,
    auth: 'credential',
    scope: 'media:read',
    params: MediaIdParams,
    status: 200,
    response: Media,
    responseHeaders: z.object({
      'Retry-After': z
        .literal('1')
        .optional()
        .meta({ description: 'While the media is `awaiting_upload` or `processing`: seconds before polling again.' }),
    }),
    errors: ['not_found'],
    mcp: false,
  }),
};
