import type { UserRecord } from '../domain/entities.js';
import { verifyPassword } from '../domain/passwords.js';
import { AppError } from '../errors.js';
import { findCredential } from '../store/users.js';

/** The session user's password, asked again before a change to how they log in: `401 invalid_credentials` when wrong. */
export async function requireCurrentPassword(user: Pick<UserRecord, 'email'>, password: string): Promise<void> {
  const credential = await findCredential(user.email);
  if (!credential || !(await verifyPassword(password, credential.password_hash)))
    throw new AppError('invalid_credentials', {
      message: 'The password is wrong.',
      hint: "Send the account's current password; passwords are case-sensitive.",
    });
}
