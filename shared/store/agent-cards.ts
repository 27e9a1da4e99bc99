/**
 * Agent cards in the table (domain/agent-cards.ts): the agent's declaration and the signature of
 * its card as last signed, two items beside the profile item, so one BatchGetItem reads the
 * profile, its operator slot and both.
 */
import type { AgentCardSignatureRecord, AgentDeclarationRecord } from '../domain/agent-cards.js';
import { entities } from './entities.js';
import { updateRequest, when } from './expressions.js';
import { getItem, putItem, putTransactItem } from './items.js';
import { keys } from './keys.js';
import type { ProfileChanges } from './profiles.js';
import type { ReadBatch } from './read-batch.js';
import { transactConditional } from './transact.js';

/** The agent's declaration: through the request's read batch on a read, else consistently (an edit answers it as it stands). */
export function getAgentDeclaration(profileId: string, reads?: ReadBatch): Promise<AgentDeclarationRecord | undefined> {
  return getItem(entities.agentDeclaration, keys.agentDeclaration(profileId), reads ? { reads } : { consistent: true });
}

export function getCardSignature(profileId: string, reads: ReadBatch): Promise<AgentCardSignatureRecord | undefined> {
  return getItem(entities.agentCardSignature, keys.agentCardSignature(profileId), { reads });
}

/**
 * Keeps the signature of a newly signed version. Unconditional: two readers that sign the same
 * new version at once write equal signatures' worth, and a stale one is replaced by the next read
 * that finds its version no longer matches.
 */
export const putCardSignature = (signature: AgentCardSignatureRecord): Promise<void> =>
  putItem(entities.agentCardSignature, signature, { ifAbsent: false });

/** The profile is still there, and an agent: a declaration is refused on any other. */
const stillAnAgent = [when.exists(), when.is('type', 'agent')];

/**
 * The profile's changes and the agent's new declaration, in one transaction: false when the
 * profile is gone (or not an agent), and then neither is written.
 */
export async function updateAgentProfile(
  id: string,
  changes: ProfileChanges,
  declaration: AgentDeclarationRecord,
): Promise<boolean> {
  const outcome = await transactConditional([
    {
      Update: updateRequest({
        key: keys.profile(id),
        set: { ...changes, updated_at: declaration.updated_at },
        when: stillAnAgent,
      }),
    },
    putTransactItem(entities.agentDeclaration, declaration, { ifAbsent: false }),
  ]);
  return outcome.ok;
}
