import { conditionHeld } from './conditional.js';
import { when } from './expressions.js';
import { keys } from './keys.js';
import { sendUpdate } from './update.js';

/**
 * Replaces the password hash on the email's credential, only if it is still `expected`: a log-in
 * upgrading the hash cannot undo a password change that landed in between. False when it was not.
 */
export function replacePasswordHash(email: string, expected: string, replacement: string): Promise<boolean> {
  return conditionHeld(
    sendUpdate({
      key: keys.email(email),
      set: { password_hash: replacement },
      when: when.is('password_hash', expected),
    }),
  );
}
