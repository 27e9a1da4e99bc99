import { signedCard } from '../../shared/agent-cards/signed-card.js';
import { agentCardOf } from '../../shared/domain/agent-cards.js';
import { isSuspended } from '../../shared/domain/reports.js';
import { notFound } from '../../shared/http/contract/errors.js';
import { routes } from '../../shared/http/contract/routes/agent-cards.js';
import { httpHandler } from '../../shared/http/handler.js';
import type { PrefetchRequest } from '../../shared/http/middleware/prefetch.js';
import { publicBaseUrl } from '../../shared/http/public-url.js';
import { MCP_PATH } from '../../shared/mcp/path.js';
import { operatorOf } from '../../shared/operators/operator-of.js';
import { kmsCardSignerFromConfig } from '../../shared/ports/aws/kms-card-signer.js';
import type { CardSigner } from '../../shared/ports/card-signer.js';
import { getAgentDeclaration, getCardSignature } from '../../shared/store/agent-cards.js';
import { getOperatorSlot } from '../../shared/store/operators.js';
import { getProfile } from '../../shared/store/profiles.js';
import type { ReadBatch } from '../../shared/store/read-batch.js';

/** The profile, its operator slot, its declaration and its card's last signature: one BatchGetItem. */
const readAgent = ({ params }: PrefetchRequest<typeof routes.getAgentCard>, reads: ReadBatch) =>
  Promise.all([
    getProfile(params.profile_id, reads),
    getOperatorSlot(params.profile_id, reads),
    getAgentDeclaration(params.profile_id, reads),
    getCardSignature(params.profile_id, reads),
  ]);

/**
 * Public; acting as a profile on the other side of a block, not found. One BatchGetItem, one read of the operator's profile when the link is accepted, and a
 * signature (one KMS call and one write) only when the card changed since it was last signed.
 */
export const handler = httpHandler(
  routes.getAgentCard,
  async ({ event, prefetched, ports, now, viewer }) => {
    const [profile, slot, declaration, signature] = await prefetched;
    if (!profile || isSuspended(profile) || profile.type !== 'agent' || viewer.isBlockedWith(profile.id))
      throw notFound('Profile');
    const operator = await operatorOf(slot);
    const baseUrl = publicBaseUrl(event);
    const card = agentCardOf({
      profile,
      declaration,
      operator: operator?.profile,
      baseUrl,
      mcpUrl: `${baseUrl}${MCP_PATH}`,
    });
    return signedCard(profile.id, card, signature, ports.cardSigner, now);
  },
  { prefetch: readAgent, ports: (): { cardSigner: CardSigner } => ({ cardSigner: kmsCardSignerFromConfig() }) },
);
