import { routes } from '../../shared/http/contract/routes/agent-cards.js';
import { httpHandler } from '../../shared/http/handler.js';
import { kmsCardSignerFromConfig } from '../../shared/ports/aws/kms-card-signer.js';
import type { CardSigner } from '../../shared/ports/card-signer.js';

/** Public: the one signing key (KMS's asymmetric keys do not rotate; a new key would be listed beside the old). */
export const handler = httpHandler(
  routes.getJwks,
  async ({ ports }) => ({ keys: [await ports.cardSigner.publicJwk()] }),
  { ports: (): { cardSigner: CardSigner } => ({ cardSigner: kmsCardSignerFromConfig() }) },
);
