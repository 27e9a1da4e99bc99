/** The workspace audit log's schemas (API.md "Accountable agents": Audit log). */
import * as z from 'zod';
import { AUDIT_ACTOR_KINDS } from '../../../domain/audit.js';
import { PageQuery } from './common.js';

export const AuditActor = z
  .object({
    kind: z.enum(AUDIT_ACTOR_KINDS),
    user_id: z.string().optional(),
    api_key_id: z.string().optional(),
    oauth_grant_id: z.string().optional(),
    client_name: z.string().optional(),
  })
  .meta({ description: 'The credential that wrote: a session (its user), an API key, or an OAuth grant (its app).' });

export const AuditEntry = z
  .object({
    id: z.string().meta({
      description:
        "The entry's own id: the request's X-Request-Id, or, for a tool call of an MCP request (one request may carry several), the call's.",
    }),
    at: z.string().meta({ description: 'When the request was received (ISO 8601).' }),
    actor: AuditActor,
    acting_profile_id: z.string().nullable().meta({ description: 'Null for writes that act as no profile.' }),
    action: z.string().meta({ description: "The route's operation id (e.g. createPost)." }),
    target: z
      .object({ type: z.string(), id: z.string() })
      .meta({ description: "What was written; a like's target is the post, a follow's the followed profile." }),
    ip_prefix: z
      .string()
      .nullable()
      .meta({ description: 'The network of the address, as the sessions list shows it.' }),
    request_id: z.string().meta({
      description:
        "The write's X-Request-Id: for an MCP request's tool calls, the MCP request's, shared by their entries.",
    }),
  })
  .meta({ id: 'AuditEntry' });

export const AuditLogQuery = PageQuery.extend({
  actor_kind: z.enum(AUDIT_ACTOR_KINDS).optional(),
  action: z.string().min(1).max(100).optional(),
});
