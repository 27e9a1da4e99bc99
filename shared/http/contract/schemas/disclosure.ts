import * as z from 'zod';
import { AUTHOR_FILTERS } from '../../../domain/disclosure.js';

/** The fields every post, comment and message carries (API.md "Accountable agents": Disclosure). */
export const DisclosureFields = {
  automated: z.boolean().meta({
    description: 'True when the author is an `agent` profile. Set by the service when written; no request sets it.',
  }),
  via: z
    .object({
      kind: z
        .enum(['session', 'api_key', 'oauth'])
        .meta({ description: 'The credential of the request that wrote it.' }),
      client_id: z.string().optional().meta({ description: "For `oauth`: the connected app's client id." }),
      client_name: z.string().optional().meta({ description: "For `oauth`: the connected app's name." }),
    })
    .meta({ id: 'Via', description: 'How it was written. Set by the service when written; no request sets it.' }),
};

export const AuthorsQuery = {
  authors: z.enum(AUTHOR_FILTERS).default('all').meta({
    description: '`humans`: every author that is not an `agent` profile (companies included); `agents`: agents only.',
  }),
};
