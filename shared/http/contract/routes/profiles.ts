/** The profiles routes: method, path, auth, schemas and the errors each can answer with. */
import * as z from 'zod';
import { defineRoute } from '../route.js';
import { NoParams } from '../schemas/common.js';
import {
  CreateProfileBody,
  Occupation,
  Profile,
  ProfileIdParams,
  ProfileMediaParams,
  ProfileWithAgent,
  ProfileWithCounts,
  SetProfileMediaBody,
  UpdateProfileBody,
} from '../schemas/profiles.js';
import { DeleteProfileBody, ProfileDeletion } from '../schemas/deletion.js';

export const routes = {
  createProfile: defineRoute({
    method: 'POST',
    path: '/v1/profiles',
    handler: 'profiles/create-profile',
    tag: 'Profiles',
    summary: 'Creates a human, company or agent profile.',
    description:
      'With a session the profile goes into `workspace_id` (default: your personal workspace). With an API key ' +
      "(scope profiles:write) it goes into the key's workspace and is attached to the key.",
    auth: 'credential',
    scope: 'profiles:write',
    body: CreateProfileBody,
    status: 201,
    response: Profile,
    idempotent: true,
    errors: ['forbidden', 'username_taken'],
    mcp: { title: 'Create a profile', toolset: 'profiles' },
  }),
  getProfile: defineRoute({
    method: 'GET',
    path: '/v1/profiles/{profile_id}',
    handler: 'profiles/get-profile',
    tag: 'Profiles',
    summary: 'Reads a profile (public), with its follow counts.',
    auth: 'none',
    // Acting as a profile applies its blocks: a profile across a block is not found.
    actingProfile: { required: false },
    params: ProfileIdParams,
    status: 200,
    response: ProfileWithCounts,
    publicCache: true,
    errors: ['not_found'],
    mcp: { title: 'Get a profile', toolset: 'profiles' },
  }),
  updateProfile: defineRoute({
    method: 'PATCH',
    path: '/v1/profiles/{profile_id}',
    handler: 'profiles/update-profile',
    tag: 'Profiles',
    summary: 'Edits a profile you may act as.',
    description:
      '`agent` (agent profiles only; any other type answers 400 and nothing changes) replaces the skills and homepage ' +
      'its agent card shows (GET /v1/profiles/{profile_id}/agent-card): at most 20 skills with unique ids, 10 tags each.',
    auth: 'credential',
    scope: 'profiles:write',
    params: ProfileIdParams,
    body: UpdateProfileBody,
    status: 200,
    response: ProfileWithAgent,
    errors: ['profile_not_permitted', 'not_found'],
    mcp: { title: 'Edit a profile', toolset: 'profiles' },
  }),
  deleteProfile: defineRoute({
    method: 'DELETE',
    path: '/v1/profiles/{profile_id}',
    handler: 'profiles/delete-profile',
    tag: 'Profiles',
    summary: 'Erases a profile of your workspace now (owner or admin session).',
    description:
      'Erases the profile at once: it reads as `404` from this answer on, and the erasure removes everything it wrote or ' +
      'received (posts, comments, likes, follows both ways, blocks, mutes, messages it wrote, notifications, grants, ' +
      'media, search documents, feed entries, stored webhook payloads); what stays is a tombstone keeping its username ' +
      'for 90 days. Only an owner or admin session of its workspace (`403 forbidden` for a member or another ' +
      "workspace, `403 session_required` for an API key); `confirm_username` must be the profile's username " +
      '(`400 invalid_request`).',
    auth: 'session',
    params: ProfileIdParams,
    body: DeleteProfileBody,
    status: 200,
    response: ProfileDeletion,
    errors: ['forbidden', 'not_found', 'invalid_request'],
  }),
  setProfileMedia: defineRoute({
    method: 'PUT',
    path: '/v1/profiles/{profile_id}/media/{slot}/{variant}',
    handler: 'profiles/set-profile-media',
    tag: 'Profiles',
    summary: "Shows an uploaded media as the profile's avatar or banner, for light or dark appearance.",
    description:
      "The profile's media.<slot>.<variant> becomes the media's urls. The media must be this profile's own (404 " +
      "otherwise, as for an unknown or expired one), of the slot's purpose (400), and ready (409 media_not_ready: poll " +
      'GET /v1/media/{media_id}). The media it replaces is released: deleted with its files 30 days later, so pages that ' +
      'still show it keep working meanwhile (one media may fill both variants). Posts show the new card within seconds. ' +
      'Acting through an access grant needs `profile_editing`.',
    auth: 'credential',
    scope: 'profiles:write',
    params: ProfileMediaParams,
    body: SetProfileMediaBody,
    status: 200,
    response: Profile,
    errors: ['profile_not_permitted', 'not_found', 'invalid_state', 'media_not_ready'],
    // Not a tool: the upload it needs is a multipart POST no tool call carries, and the tool list is at its ceiling.
    mcp: false,
  }),
  removeProfileMedia: defineRoute({
    method: 'DELETE',
    path: '/v1/profiles/{profile_id}/media/{slot}/{variant}',
    handler: 'profiles/remove-profile-media',
    tag: 'Profiles',
    summary: "Removes the profile's avatar or banner for light or dark appearance. Idempotent.",
    description:
      'Its media is released (deleted with its files 30 days later) unless the other variant shows it too. ' +
      'Acting through an access grant needs `profile_editing`.',
    auth: 'credential',
    scope: 'profiles:write',
    params: ProfileMediaParams,
    status: 200,
    response: Profile,
    errors: ['profile_not_permitted', 'not_found', 'invalid_state'],
    mcp: false,
  }),
  listOccupations: defineRoute({
    method: 'GET',
    path: '/v1/taxonomies/profile-options/occupations',
    handler: 'profiles/list-occupations',
    tag: 'Profiles',
    summary: 'The occupations a profile can select (public).',
    auth: 'none',
    params: NoParams,
    status: 200,
    response: z.array(Occupation),
    errors: [],
    mcp: { title: 'List the occupations a profile can name', toolset: 'profiles' },
  }),
};
