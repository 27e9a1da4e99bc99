import type { MembershipRecord, UserRecord, WorkspaceRecord } from '../domain/entities.js';
import { AppError } from '../errors.js';
import { entities, type EmailCredential } from './entities.js';
import { getItem, putTransactItem } from './items.js';
import { keys } from './keys.js';
import type { ReadBatch } from './read-batch.js';
import { transact, type TransactItem } from './transact.js';
import { membershipItem, workspaceItem } from './workspaces.js';

export type { EmailCredential } from './entities.js';

/**
 * Creates the user, its unique email and its personal workspace with the user as owner, and the
 * `also` items (the verification token and its mail): all or nothing.
 */
export async function createUserWithWorkspace(
  user: UserRecord,
  passwordHash: string,
  workspace: WorkspaceRecord,
  owner: MembershipRecord,
  also: readonly TransactItem[] = [],
): Promise<void> {
  await transact(
    [
      putTransactItem(entities.email(user.email), { user_id: user.id, password_hash: passwordHash }),
      putTransactItem(entities.user, user, { ifAbsent: false }),
      workspaceItem(workspace),
      membershipItem(owner),
      ...also,
    ],
    () => new AppError('email_taken', { hint: 'Log in with POST /v1/sessions, or sign up with another email.' }),
  );
}

export async function findCredential(email: string): Promise<EmailCredential | undefined> {
  const credential = await getItem(entities.email(email), keys.email(email));
  return credential && { user_id: credential.user_id, password_hash: credential.password_hash };
}

/** The user; through the request's `reads` when given (joins its BatchGetItem). */
export function getUser(id: string, reads?: ReadBatch): Promise<UserRecord | undefined> {
  return getItem(entities.user, keys.user(id), { reads });
}
