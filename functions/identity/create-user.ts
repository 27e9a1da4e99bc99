import { config } from '../../shared/config.js';
import { verificationMail } from '../../shared/domain/account-mail.js';
import { publicBaseUrl } from '../../shared/http/public-url.js';
import { issueWrites } from '../../shared/store/account-tokens.js';
import { newMembership, newPersonalWorkspace, newUser } from '../../shared/domain/entities.js';
import { hashPassword, scryptCost } from '../../shared/domain/passwords.js';
import { httpHandler, withHint } from '../../shared/http/handler.js';
import { presentUser, presentWorkspace } from '../../shared/http/present/identity.js';
import { createUserWithWorkspace } from '../../shared/store/users.js';
import { routes } from '../../shared/http/contract/routes/identity.js';

export const handler = httpHandler(routes.createUser, async ({ body, now, event }) => {
  const user = newUser(now, body);
  const workspace = newPersonalWorkspace(now, user);
  const passwordHash = await hashPassword(body.password, scryptCost(config.scryptLog2N));
  // The verification mail is recorded with the account: the stream's mail consumer sends it.
  const verification = verificationMail(now, publicBaseUrl(event), user);
  await createUserWithWorkspace(
    user,
    passwordHash,
    workspace,
    newMembership(now, workspace, user, 'owner'),
    issueWrites(verification.record, verification.mails),
  );
  return withHint(
    { user: presentUser(user), workspace: presentWorkspace(workspace) },
    'Log in with POST /v1/sessions to get a session token.',
  );
});
