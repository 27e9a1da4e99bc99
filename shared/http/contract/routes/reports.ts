/** The reports routes: a profile reports what it can read, and lists its own reports. */
import { defineRoute } from '../route.js';
import { PageQuery, page } from '../schemas/common.js';
import { CreateReportBody, Report, ReportResult } from '../schemas/reports.js';

export const routes = {
  createReport: defineRoute({
    method: 'POST',
    path: '/v1/reports',
    handler: 'reports/create-report',
    tag: 'Safety',
    summary: 'Reports a post, comment, profile or message to moderators.',
    description:
      'The subject must be visible to the acting profile (a message: one it sent or received); else 404. One open report ' +
      'per profile and subject: reporting it again while the first is open answers the first unchanged (200).',
    auth: 'credential',
    scope: 'safety:write',
    actingProfile: { required: true },
    body: CreateReportBody,
    status: 201,
    existingStatus: 200,
    response: ReportResult,
    errors: ['not_found'],
    mcp: { name: 'report_content', title: 'Report content', toolset: 'safety' },
  }),
  listReports: defineRoute({
    method: 'GET',
    path: '/v1/reports',
    handler: 'reports/list-reports',
    tag: 'Safety',
    summary: "The acting profile's own reports, newest first (paginated).",
    auth: 'credential',
    scope: 'safety:read',
    actingProfile: { required: true },
    query: PageQuery,
    status: 200,
    response: page(Report),
    errors: [],
    // Not a tool: an agent reports; following its reports up is a person's work in the API.
    mcp: false,
  }),
};
