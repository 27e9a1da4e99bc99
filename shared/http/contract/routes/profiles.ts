/** The profiles routes: method, path, auth, schemas and the errors each can answer with. */
import * as z from 'zod';
import { defineRoute } from '../route.js';
import { NoParams } from '../schemas/common.js';
import {
  CreateProfileBody,
  Occupation,
  Profile,
  ProfileIdParams,
  ProfileWithCounts,
  UpdateProfileBody,
} from '../schemas/profiles.js';

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
    mcp: { title: 'Create a profile' },
  }),
  getProfile: defineRoute({
    method: 'GET',
    path: '/v1/profiles/{profile_id}',
    handler: 'profiles/get-profile',
    tag: 'Profiles',
    summary: 'Reads a profile (public), with its follow counts.',
    auth: 'none',
    params: ProfileIdParams,
    status: 200,
    response: ProfileWithCounts,
    publicCache: true,
    errors: ['not_found'],
    mcp: { title: 'Get a profile' },
  }),
  updateProfile: defineRoute({
    method: 'PATCH',
    path: '/v1/profiles/{profile_id}',
    handler: 'profiles/update-profile',
    tag: 'Profiles',
    summary: 'Edits a profile you may act as.',
    auth: 'credential',
    scope: 'profiles:write',
    params: ProfileIdParams,
    body: UpdateProfileBody,
    status: 200,
    response: Profile,
    errors: ['profile_not_permitted', 'not_found'],
    mcp: { title: 'Edit a profile' },
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
    mcp: { title: 'List the occupations a profile can name' },
  }),
};
