import * as z from 'zod';
import { Timestamp, Uuid } from './common.js';

export const OperatorLinkIdParams = z.strictObject({ link_id: Uuid });

export const RequestOperatorBody = z.strictObject({
  operator_profile_id: Uuid.meta({ description: 'The human or company profile asked to operate the agent.' }),
});

export const OperatorLink = z
  .object({
    id: Uuid,
    agent_profile_id: Uuid,
    operator_profile_id: Uuid,
    status: z.enum(['pending', 'accepted', 'declined', 'ended']),
    created_at: Timestamp,
  })
  .meta({ id: 'OperatorLink' });

export const OperatorLinkResult = z.object({ link: OperatorLink });
