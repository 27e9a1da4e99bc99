/**
 * Operator links (API.md "Accountable agents", Operators): an `agent` profile names the `human` or
 * `company` profile that operates it, and the operator confirms. Pure: the states, who may act on
 * a link, and what each refusal says.
 */
import { AppError } from '../errors.js';
import type { ProfileRecord } from './entities.js';
import { newId } from './ids.js';

export type OperatorLinkStatus = 'pending' | 'accepted' | 'declined' | 'ended';

export interface OperatorLinkRecord {
  id: string;
  agent_profile_id: string;
  operator_profile_id: string;
  status: OperatorLinkStatus;
  created_at: string;
  /** When the operator accepted: the `since` of Profile.operator. */
  accepted_at: string | null;
  updated_at: string;
}

/**
 * The agent's one open link (pending or accepted), under the agent's profile partition: its
 * existence is what keeps a second request out, and a profile read finds its operator with it.
 */
export interface OperatorSlotRecord {
  agent_profile_id: string;
  link_id: string;
  operator_profile_id: string;
  status: 'pending' | 'accepted';
  since: string | null;
}

/** An accepted link seen from the operator: its agents list, by acceptance time. */
export interface OperatedAgentRecord {
  operator_profile_id: string;
  agent_profile_id: string;
  link_id: string;
  since: string;
}

export type OperatorLinkAction = 'accept' | 'decline' | 'end';

/** The statuses each action may start from: pending → accepted | declined | ended; accepted → ended. */
export const LINK_ALLOWED_FROM: Record<OperatorLinkAction, readonly OperatorLinkStatus[]> = {
  accept: ['pending'],
  decline: ['pending'],
  end: ['pending', 'accepted'],
};

export const LINK_TARGET: Record<OperatorLinkAction, OperatorLinkStatus> = {
  accept: 'accepted',
  decline: 'declined',
  end: 'ended',
};

const OPERATOR_TYPES: readonly ProfileRecord['type'][] = ['human', 'company'];

/** Why `agent` may not name `operator` (a 400 message), or undefined when it may. */
export function operatorRefusal(
  agent: Pick<ProfileRecord, 'id' | 'type'>,
  operator: Pick<ProfileRecord, 'id' | 'type'>,
): string | undefined {
  if (agent.type !== 'agent') return 'Only an agent profile has an operator.';
  if (agent.id === operator.id) return 'A profile cannot operate itself.';
  if (!OPERATOR_TYPES.includes(operator.type)) return 'An operator is a human or company profile, not an agent.';
  return undefined;
}

export function newOperatorLink(now: Date, agentId: string, operatorId: string): OperatorLinkRecord {
  const at = now.toISOString();
  return {
    id: newId(),
    agent_profile_id: agentId,
    operator_profile_id: operatorId,
    status: 'pending',
    created_at: at,
    accepted_at: null,
    updated_at: at,
  };
}

/** The link as it is after `action` at `at` (the caller has checked LINK_ALLOWED_FROM). */
export function linkAfter(link: OperatorLinkRecord, action: OperatorLinkAction, at: string): OperatorLinkRecord {
  return {
    ...link,
    status: LINK_TARGET[action],
    updated_at: at,
    ...(action === 'accept' ? { accepted_at: at } : {}),
  };
}

export const linkInvalidState = (action: OperatorLinkAction) =>
  new AppError('invalid_state', {
    message: `The operator link cannot be ${action === 'end' ? 'ended' : `${action}ed`} in its current status.`,
    hint: `Only a link with status ${LINK_ALLOWED_FROM[action].join(' or ')} allows this.`,
  });

export const operatorTaken = () =>
  new AppError('invalid_state', {
    message: 'The agent already has an operator, or a request for one is pending.',
    hint: 'End the current link (DELETE /v1/operator-links/{link_id}) before naming another operator.',
  });
