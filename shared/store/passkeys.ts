/**
 * Passkeys and their ceremonies' challenges (domain/passkeys.ts). A challenge is single use by a
 * conditional delete that returns it; a sign-in's counter update and its session are one
 * transaction, so a refused counter leaves no session behind.
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import type { SessionRecord } from '../domain/entities.js';
import type { PasskeyCeremony, PasskeyChallengeRecord, PasskeyRecord } from '../domain/passkeys.js';
import { db } from './client.js';
import { conditionHeld, conditionOutcome } from './conditional.js';
import { entities } from './entities.js';
import { conditionRequest, updateRequest, when } from './expressions.js';
import { getItem, putItem, putTransactItem, recordOrUndefined } from './items.js';
import { keys } from './keys.js';
import { queryPath } from './paths.js';
import type { ReadBatch } from './read-batch.js';
import { transactConditional } from './transact.js';

export async function putPasskeyChallenge(challenge: PasskeyChallengeRecord): Promise<void> {
  await putItem(entities.passkeyChallenge, challenge);
}

/**
 * Takes the challenge `id` of `ceremony` (for `userId`'s registration; any sign-in's when null)
 * while it is valid at `now`: deleted and returned in one conditional write, so of two answers to
 * one challenge exactly one gets it. Undefined when it is unknown, used, expired or another's.
 */
export async function takePasskeyChallenge(
  id: string,
  ceremony: PasskeyCeremony,
  userId: string | null,
  now: Date,
): Promise<PasskeyChallengeRecord | undefined> {
  const outcome = await conditionOutcome(
    db().send(
      new DeleteCommand({
        ...conditionRequest([
          when.exists(),
          when.is('ceremony', ceremony),
          when.is('user_id', userId),
          when.compare('expires_at', '>', now.toISOString()),
        ]),
        Key: keys.passkeyChallenge(id),
        ReturnValues: 'ALL_OLD',
      }),
    ),
  );
  return outcome.held ? recordOrUndefined(entities.passkeyChallenge, outcome.result.Attributes) : undefined;
}

/** Adds a passkey; false when its credential is registered already. */
export const addPasskey = (passkey: PasskeyRecord): Promise<boolean> =>
  conditionHeld(putItem(entities.passkey, passkey));

/** The passkey of a credential, by its derived id: strongly consistent, so a passkey added a moment ago signs in. */
export const getPasskey = (id: string, reads?: ReadBatch): Promise<PasskeyRecord | undefined> =>
  getItem(entities.passkey, keys.passkey(id), reads ? { reads } : { consistent: true });

/** A user's passkeys, oldest first (a person has a handful). */
export const listUserPasskeys = (userId: string): Promise<PasskeyRecord[]> =>
  queryPath(entities.passkey, 'byUser', { user_id: userId });

/** Deletes the user's passkey `id`; false when there is none of theirs by that id. */
export const deleteUserPasskey = (userId: string, id: string): Promise<boolean> =>
  conditionHeld(
    db().send(
      new DeleteCommand({ ...conditionRequest([when.exists(), when.is('user_id', userId)]), Key: keys.passkey(id) }),
    ),
  );

/**
 * A passkey sign-in, all or nothing: the passkey's counter moves to `counter` (only from the value
 * the assertion was checked against, so two sign-ins with one counter value cannot both pass) and
 * the session is created. False when the passkey changed or went meanwhile.
 */
export async function signInWithPasskey(
  passkey: Pick<PasskeyRecord, 'id' | 'counter'>,
  counter: number,
  session: SessionRecord,
): Promise<boolean> {
  const outcome = await transactConditional([
    {
      Update: updateRequest({
        key: keys.passkey(passkey.id),
        set: { counter, last_used_at: session.created_at },
        when: [when.exists(), when.is('counter', passkey.counter)],
      }),
    },
    putTransactItem(entities.session, session),
  ]);
  return outcome.ok;
}
