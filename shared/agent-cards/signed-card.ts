/**
 * A card with the service's signature: the stored one while it still holds (same version, same
 * key), else a new one, kept for the next reads. So signing costs one KMS call and one write per
 * change of the card, not per read.
 */
import {
  protectedHeaderOf,
  signatureHolds,
  signingInputOf,
  type AgentCard,
  type AgentCardSignatureRecord,
  type UnsignedAgentCard,
} from '../domain/agent-cards.js';
import type { CardSigner } from '../ports/card-signer.js';
import { putCardSignature } from '../store/agent-cards.js';

async function signAndKeep(
  profileId: string,
  card: UnsignedAgentCard,
  kid: string,
  signer: CardSigner,
  now: Date,
): Promise<AgentCardSignatureRecord> {
  const header = protectedHeaderOf(kid);
  const signature = Buffer.from(await signer.sign(signingInputOf(header, card))).toString('base64url');
  const record = {
    profile_id: profileId,
    version: card.version,
    kid,
    protected: header,
    signature,
    signed_at: now.toISOString(),
  };
  await putCardSignature(record);
  return record;
}

export async function signedCard(
  profileId: string,
  card: UnsignedAgentCard,
  stored: AgentCardSignatureRecord | undefined,
  signer: CardSigner,
  now: Date,
): Promise<AgentCard> {
  const kid = await signer.keyId();
  const current = signatureHolds(stored, card, kid) ? stored : await signAndKeep(profileId, card, kid, signer, now);
  return { ...card, signatures: [{ protected: current.protected, signature: current.signature }] };
}
