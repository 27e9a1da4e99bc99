/** The moderation routes: moderator sessions only (users with the platform role `moderator`). */
import { defineRoute } from '../route.js';
import { page } from '../schemas/common.js';
import {
  ModerationSubjectParams,
  ModerationSubjectsQuery,
  ReportedSubject,
  ResolveSubjectBody,
  ResolveSubjectResult,
} from '../schemas/reports.js';

export const routes = {
  listModerationSubjects: defineRoute({
    method: 'GET',
    path: '/v1/moderation/subjects',
    handler: 'moderation/list-subjects',
    tag: 'Safety',
    summary: 'The reported subjects of one status (default open), most reported first (moderators, paginated).',
    description:
      'A moderator session only (others 403 forbidden). The role is given and taken by the operator (`npm run moderator`) and holds from the next request.',
    auth: 'session',
    query: ModerationSubjectsQuery,
    status: 200,
    response: page(ReportedSubject),
    errors: ['forbidden'],
  }),
  resolveModerationSubject: defineRoute({
    method: 'POST',
    path: '/v1/moderation/subjects/{subject_type}/{subject_id}/resolve',
    handler: 'moderation/resolve-subject',
    tag: 'Safety',
    summary: 'Resolves every open report of the subject with one action, in one transaction with its effect.',
    description:
      '`remove_content` (posts and comments only, else 400) sets status `removed`: it reads 404 to everyone but its ' +
      'author. `suspend_profile` suspends the profile (the subject, or its author): it reads 404, leaves every list, ' +
      'cannot be acted as (403 profile_suspended) and its webhooks stop. A subject without open reports is 404.',
    auth: 'session',
    params: ModerationSubjectParams,
    body: ResolveSubjectBody,
    status: 200,
    response: ResolveSubjectResult,
    errors: ['forbidden', 'not_found'],
  }),
};
