/**
 * The passkey sign-in (POST /v1/sessions/passkey) in-process against DynamoDB Local: what it costs
 * in DynamoDB requests and round trips, and that a sign-in refused by the counter's condition
 * leaves no session behind.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../functions/passkeys/sign-in.js';
import { newSession, newUser } from '../../shared/domain/entities.js';
import { newId } from '../../shared/domain/ids.js';
import { newChallengeValue, newPasskey, newPasskeyChallenge } from '../../shared/domain/passkeys.js';
import { db } from '../../shared/store/client.js';
import { entities } from '../../shared/store/entities.js';
import { putItem } from '../../shared/store/items.js';
import { getPasskey, putPasskeyChallenge, signInWithPasskey } from '../../shared/store/passkeys.js';
import { getSession } from '../../shared/store/sessions.js';
import { recordDynamoDbCalls, sequentialRoundTrips } from '../support/dynamodb-calls.js';
import { apiEvent, invoke } from '../support/events.js';
import { SoftwareAuthenticator } from '../support/passkey-authenticator.js';

const ORIGIN = 'http://localhost:4173';
process.env.WEBAUTHN_ORIGINS = ORIGIN;

let recorder: ReturnType<typeof recordDynamoDbCalls>;
beforeAll(() => {
  recorder = recordDynamoDbCalls(db());
});
beforeEach(() => recorder.reset());

/** A user with one passkey of a counting authenticator, stored as POST /v1/me/passkeys stores it. */
async function seed() {
  const user = newUser(new Date(), { email: `${newId()}@example.com`, name: 'Pat' });
  await putItem(entities.user, user);
  const authenticator = new SoftwareAuthenticator({ origin: ORIGIN, counts: true });
  const userHandle = Buffer.from(user.id).toString('base64url');
  authenticator.register({
    challenge: 'x',
    rp: { id: 'localhost', name: 'x' },
    user: { id: userHandle, name: '', displayName: '' },
  });
  const credential = authenticator.only();
  const passkey = newPasskey(new Date(), {
    user_id: user.id,
    name: 'Laptop',
    credential_id: credential.id,
    public_key: credential.publicKey.export({ type: 'spki', format: 'der' }).toString('base64url'),
    algorithm: -7,
    counter: 0,
    transports: ['internal'],
    device_type: 'singleDevice',
    backed_up: false,
  });
  await putItem(entities.passkey, passkey);
  return { user, authenticator, credential, passkey };
}

async function challenge() {
  const record = newPasskeyChallenge(new Date(), {
    id: newId(),
    ceremony: 'authentication',
    challenge: newChallengeValue(),
    user_id: null,
  });
  await putPasskeyChallenge(record);
  return record;
}

describe('the passkey sign-in', () => {
  it('takes two round trips: the challenge taken beside one batch read, then one transaction', async () => {
    const { authenticator, credential } = await seed();
    const { id, challenge: value } = await challenge();
    recorder.reset();
    const result = await invoke(
      handler,
      apiEvent({
        body: JSON.stringify({
          challenge_id: id,
          response: authenticator.signIn({ challenge: value, rpId: 'localhost' }, credential),
        }),
        headers: { 'content-type': 'application/json' },
      }),
    );
    expect(result.status).toBe(201);
    // The rate limit's own counting (UpdateItem) aside.
    const calls = recorder.calls.filter((c) => c.command !== 'UpdateItem');
    expect(calls.map((c) => c.command).sort()).toEqual(['BatchGetItem', 'DeleteItem', 'TransactWriteItems']);
    expect(sequentialRoundTrips(calls)).toBe(2);
  });

  it('leaves no session when the counter moved meanwhile', async () => {
    const { passkey } = await seed();
    const session = newSession(new Date(), {
      id: newId(),
      user_id: passkey.user_id,
      secret_hash: 'h',
      method: 'passkey',
      second_factor: null,
      client: { user_agent: null, ip_prefix: null },
    });
    // Two sign-ins checked against counter 0: the first moves it to 1, the second's condition fails.
    expect(await signInWithPasskey({ ...passkey, counter: 0 }, 1, session)).toBe(true);
    const second = { ...session, id: newId() };
    expect(await signInWithPasskey({ ...passkey, counter: 0 }, 2, second)).toBe(false);
    expect(await getSession(second.id)).toBeUndefined();
    expect(await getPasskey(passkey.id)).toMatchObject({ counter: 1, last_used_at: session.created_at });
    expect(await getSession(session.id)).toMatchObject({ method: 'passkey' });
  });
});
