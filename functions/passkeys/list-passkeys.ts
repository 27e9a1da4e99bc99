import { routes } from '../../shared/http/contract/routes/passkeys.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentPasskey } from '../../shared/http/present/passkeys.js';
import { listUserPasskeys } from '../../shared/store/passkeys.js';

export const handler = httpHandler(routes.listPasskeys, async ({ auth }) => ({
  items: (await listUserPasskeys(auth.principal.userId)).map(presentPasskey),
}));
