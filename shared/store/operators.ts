/**
 * Operator links in the table (domain/operators.ts). Three items move together, always in one
 * transaction with the link: the link itself; the agent's slot (pending or accepted), whose
 * existence keeps a second request out (`ifAbsent`) and whose condition on `link_id` stops a stale
 * transition from touching a newer link; and, while accepted, the operated-agent item that the
 * operator's agents list reads.
 */
import {
  LINK_ALLOWED_FROM,
  linkAfter,
  linkInvalidState,
  operatorTaken,
  type OperatedAgentRecord,
  type OperatorLinkAction,
  type OperatorLinkRecord,
  type OperatorSlotRecord,
} from '../domain/operators.js';
import { tableName } from './client.js';
import { entities } from './entities.js';
import { conditionRequest, updateRequest, when } from './expressions.js';
import { getItem, putTransactItem } from './items.js';
import { keys } from './keys.js';
import type { Page, PageRequest } from './pagination.js';
import { pathPage } from './paths.js';
import type { ReadBatch } from './read-batch.js';
import { transactConditional, type TransactItem } from './transact.js';

export function getOperatorLink(id: string): Promise<OperatorLinkRecord | undefined> {
  return getItem(entities.operatorLink, keys.operatorLink(id), { consistent: true });
}

/** The agent's open link, if any: through the request's read batch on a profile read (no round trip of its own). */
export function getOperatorSlot(agentId: string, reads?: ReadBatch): Promise<OperatorSlotRecord | undefined> {
  return getItem(entities.operatorSlot, keys.operatorSlot(agentId), reads ? { reads } : { consistent: true });
}

/** Writes a pending link with the agent's slot; 409 when the agent has an open link already (the slot exists). */
export async function createOperatorLink(link: OperatorLinkRecord): Promise<void> {
  const slot: OperatorSlotRecord = {
    agent_profile_id: link.agent_profile_id,
    link_id: link.id,
    operator_profile_id: link.operator_profile_id,
    status: 'pending',
    since: null,
  };
  const outcome = await transactConditional([
    putTransactItem(entities.operatorLink, link),
    putTransactItem(entities.operatorSlot, slot),
  ]);
  if (!outcome.ok) throw operatorTaken();
}

const operatedAgentOf = (link: OperatorLinkRecord, since: string): OperatedAgentRecord => ({
  operator_profile_id: link.operator_profile_id,
  agent_profile_id: link.agent_profile_id,
  link_id: link.id,
  since,
});

/** The slot's own condition: it still belongs to this link. */
const slotOfLink = (link: OperatorLinkRecord) => when.is('link_id', link.id);

/**
 * Moves the link from the status the caller read (which must allow `action`), with the slot and
 * the operated-agent item, in one transaction conditioned on that status: of two concurrent
 * transitions one applies and the other is 409 invalid_state, never a lost update.
 */
export async function transitionOperatorLink(
  before: OperatorLinkRecord,
  action: OperatorLinkAction,
  at: string,
): Promise<OperatorLinkRecord> {
  if (!LINK_ALLOWED_FROM[action].includes(before.status)) throw linkInvalidState(action);
  const after = linkAfter(before, action, at);
  const slotKey = keys.operatorSlot(before.agent_profile_id);
  const items: TransactItem[] = [
    {
      Update: updateRequest({
        key: keys.operatorLink(before.id),
        set: { status: after.status, accepted_at: after.accepted_at, updated_at: at },
        when: when.is('status', before.status),
      }),
    },
  ];
  if (action === 'accept') {
    items.push(
      { Update: updateRequest({ key: slotKey, set: { status: 'accepted', since: at }, when: slotOfLink(before) }) },
      putTransactItem(entities.operatedAgent, operatedAgentOf(before, at)),
    );
  } else {
    items.push({ Delete: { ...conditionRequest(slotOfLink(before)), Key: slotKey } });
    if (before.status === 'accepted' && before.accepted_at) {
      const since = before.accepted_at;
      items.push({
        Delete: {
          TableName: tableName(),
          Key: keys.operatedAgent(before.operator_profile_id, since, before.agent_profile_id),
        },
      });
    }
  }
  const outcome = await transactConditional(items);
  if (!outcome.ok) throw linkInvalidState(action);
  return after;
}

/** The operator's agents (accepted links), latest acceptance first. */
export const listOperatedAgents = (operatorId: string, request: PageRequest): Promise<Page<OperatedAgentRecord>> =>
  pathPage(entities.operatedAgent, 'agentsOf', { operator_profile_id: operatorId }, request, { order: 'newest_first' });
