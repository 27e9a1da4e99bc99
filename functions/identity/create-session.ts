import { passSecondFactor, wrongCode } from '../../shared/auth/second-factor.js';
import { config } from '../../shared/config.js';
import { issueSession } from '../../shared/domain/entities.js';
import {
  dummyPasswordHash,
  hashPassword,
  needsRehash,
  scryptCost,
  verifyPassword,
} from '../../shared/domain/passwords.js';
import { ApiError, AppError } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { rateLimited } from '../../shared/http/middleware/rate-limit.js';
import { presentUser } from '../../shared/http/present/identity.js';
import { sessionClientOf } from '../../shared/http/session-client.js';
import { returnLoginAttempt, takeLoginAttempt, type LoginAttempt } from '../../shared/store/login-throttle.js';
import { replacePasswordHash } from '../../shared/store/passwords.js';
import { spendTransactItem } from '../../shared/store/second-factor.js';
import { putSession, sessionTransactItem } from '../../shared/store/sessions.js';
import { transact } from '../../shared/store/transact.js';
import { findCredential, getUser } from '../../shared/store/users.js';
import { routes } from '../../shared/http/contract/routes/identity.js';

const wrongPassword = () =>
  new ApiError('invalid_credentials', { hint: 'Check the email and password; passwords are case-sensitive.' });

/**
 * The password and second factor of the email's account, or the error to answer. Each attempt
 * is a failure of the account's throttle (store/login-throttle.ts) unless it ends in a session or
 * in a right password waiting for its code.
 */
async function provenUser(email: string, password: string, attempt: Promise<LoginAttempt>) {
  const cost = scryptCost(config.scryptLog2N);
  const [booked, credential] = await Promise.all([attempt, findCredential(email)]);
  if (!booked.admitted) throw rateLimited(booked.retryAfter);
  // Unknown emails cost a hash too, so timing does not reveal which emails have accounts.
  const valid = await verifyPassword(password, credential?.password_hash ?? dummyPasswordHash(cost));
  const user = credential && valid ? await getUser(credential.user_id) : undefined;
  if (!user) throw wrongPassword();
  // The password is at hand only now: a hash made at a lower cost is replaced by one at the current cost.
  const upgrade = needsRehash(credential!.password_hash, cost)
    ? hashPassword(password, cost).then((hash) => replacePasswordHash(email, credential!.password_hash, hash))
    : undefined;
  return { user, booked, upgrade };
}

export const handler = httpHandler(routes.createSession, async ({ body, now, event }) => {
  const { user, booked, upgrade } = await provenUser(body.email, body.password, takeLoginAttempt(body.email, now));
  let factor;
  try {
    factor = passSecondFactor(user, body, now);
  } catch (error) {
    // A right password waiting for its code is not a failure; a wrong code is.
    const waiting = error instanceof AppError && error.code === 'second_factor_required';
    await Promise.all([waiting ? returnLoginAttempt(booked) : undefined, upgrade]);
    throw error;
  }

  const { token, session } = issueSession(now, {
    user_id: user.id,
    method: 'password',
    second_factor: factor.method,
    client: sessionClientOf(event),
  });
  // The code is spent in the session's own write: no round trip more than a log-in without one.
  const write = factor.spend
    ? transact([spendTransactItem(factor.spend), sessionTransactItem(session)], () => wrongCode())
    : putSession(session);
  // The throttle's unit goes back beside the write; a refused code books it again (a failure after all).
  const [written] = await Promise.allSettled([write, upgrade, returnLoginAttempt(booked)]);
  if (written.status === 'rejected') {
    if (written.reason instanceof AppError && written.reason.code === 'invalid_credentials')
      await takeLoginAttempt(body.email, now);
    throw written.reason;
  }
  return { session: { token, expires_at: session.expires_at }, user: presentUser(factor.user) };
});
