import { notFound } from '../../shared/http/contract/errors.js';
import { routes } from '../../shared/http/contract/routes/passkeys.js';
import { httpHandler } from '../../shared/http/handler.js';
import { deleteUserPasskey } from '../../shared/store/passkeys.js';

export const handler = httpHandler(routes.deletePasskey, async ({ auth, params }) => {
  // One conditional delete: another user's passkey is refused by its owner, not read first.
  if (!(await deleteUserPasskey(auth.principal.userId, params.passkey_id))) throw notFound('Passkey');
  return { deleted: true as const };
});
