/**
 * Passkeys over HTTP against the local server, with a software authenticator at the console's
 * origin (`http://localhost:<port>`, the local default): adding, listing and deleting passkeys,
 * signing in with one, and each response the service must refuse without changing anything.
 */
import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { call, expectError, signUp, type SignedUp } from '../support/api.js';
import { SoftwareAuthenticator, type StoredCredential, type Spoil } from '../support/passkey-authenticator.js';

const origin = () => `http://localhost:${new URL(inject('baseUrl')).port}`;

async function registrationOptions(token: string) {
  const response = await call('POST', '/v1/me/passkeys/registration-options', { token });
  expect(response.status).toBe(200);
  return response.body.data;
}

/** A signed-up user with one passkey on `authenticator`. */
async function withPasskey(authenticator = new SoftwareAuthenticator({ origin: origin() }), name = 'Laptop') {
  const user = await signUp();
  const options = await registrationOptions(user.token);
  const added = await call('POST', '/v1/me/passkeys', {
    token: user.token,
    body: { name, response: authenticator.register(options) },
  });
  if (added.status !== 201) throw new Error(JSON.stringify(added.body));
  const credential = [...authenticator.credentials.values()].at(-1)!;
  return { user, authenticator, credential, passkey: added.body.data.passkey };
}

async function signInOptions() {
  const response = await call('POST', '/v1/sessions/passkey-options');
  expect(response.status).toBe(200);
  return response.body.data as { challenge_id: string; options: { challenge: string; rpId: string } };
}

/** A sign-in with a fresh challenge, the response spoiled as asked. */
async function signIn(authenticator: SoftwareAuthenticator, credential: StoredCredential, spoil: Spoil = {}) {
  const { challenge_id, options } = await signInOptions();
  return call('POST', '/v1/sessions/passkey', {
    body: { challenge_id, response: authenticator.signIn(options, credential, spoil) },
  });
}

const listPasskeys = async (user: SignedUp) =>
  (await call('GET', '/v1/me/passkeys', { token: user.token })).body.data.items as {
    id: string;
    last_used_at: string | null;
  }[];

function expectRefused(response: Awaited<ReturnType<typeof call>>, hint: RegExp) {
  const body = expectError(response, 401, 'invalid_credentials');
  expect(body.agent.hint).toMatch(hint);
}

describe('adding a passkey', () => {
  it('offers a discoverable credential with user verification for this relying party, excluding those the user has', async () => {
    const { user, credential } = await withPasskey();
    const options = await registrationOptions(user.token);
    expect(options).toMatchObject({
      rp: { id: 'localhost' },
      user: { name: user.email, displayName: user.user.name },
      authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
      attestation: 'none',
      timeout: 300_000,
    });
    expect(Buffer.from(options.user.id, 'base64url').toString()).toBe(user.user.id);
    expect(options.pubKeyCredParams).toContainEqual({ type: 'public-key', alg: -7 });
    expect(options.excludeCredentials).toEqual([{ id: credential.id, type: 'public-key', transports: ['internal'] }]);
  });

  it('adds, lists and deletes the passkeys of the session user only', async () => {
    const { user, passkey, authenticator } = await withPasskey();
    expect(passkey).toEqual({
      id: expect.any(String),
      name: 'Laptop',
      created_at: expect.any(String),
      last_used_at: null,
    });
    const phone = await call('POST', '/v1/me/passkeys', {
      token: user.token,
      body: { name: 'Phone', response: authenticator.register(await registrationOptions(user.token)) },
    });
    expect(phone.status).toBe(201);
    expect((await listPasskeys(user)).map((p) => p.id)).toEqual([passkey.id, phone.body.data.passkey.id]);

    const other = await signUp();
    expect(await listPasskeys(other)).toEqual([]);
    // Another user's passkey id and an unknown one read alike; the passkey stays.
    expectError(await call('DELETE', `/v1/me/passkeys/${passkey.id}`, { token: other.token }), 404, 'not_found');
    expectError(
      await call('DELETE', '/v1/me/passkeys/00000000-0000-4000-8000-000000000000', { token: user.token }),
      404,
      'not_found',
    );
    expect(await listPasskeys(user)).toHaveLength(2);

    const deleted = await call('DELETE', `/v1/me/passkeys/${passkey.id}`, { token: user.token });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({ deleted: true });
    expect((await listPasskeys(user)).map((p) => p.id)).toEqual([phone.body.data.passkey.id]);
    expectError(await call('DELETE', `/v1/me/passkeys/${passkey.id}`, { token: user.token }), 404, 'not_found');
  });

  it("refuses a response to another user's challenge, from another origin, to a used challenge, and a passkey twice", async () => {
    const { user, authenticator, credential } = await withPasskey();
    const other = await signUp();
    const refused = async (token: string, response: unknown, hint: RegExp) => {
      const body = expectError(
        await call('POST', '/v1/me/passkeys', { token, body: { name: 'X', response } }),
        400,
        'invalid_request',
      );
      expect(body.agent.hint).toMatch(hint);
    };

    // Answered for the first user, sent by the second: the challenge is not theirs (and stays the first user's).
    const options = await registrationOptions(user.token);
    const response = authenticator.register(options);
    await refused(other.token, response, /challenge is unknown, used or expired/);
    expect(
      (await call('POST', '/v1/me/passkeys', { token: user.token, body: { name: 'Phone', response } })).status,
    ).toBe(201);
    // Used: a challenge answers once.
    await refused(user.token, authenticator.register(options), /challenge is unknown, used or expired/);

    await refused(
      user.token,
      authenticator.register(await registrationOptions(user.token), { origin: 'https://evil.example' }),
      /origin this service does not accept/,
    );

    // A challenge that cannot be one of ours is refused before it is looked up.
    await refused(
      user.token,
      authenticator.register(await registrationOptions(user.token), { challenge: 'x'.repeat(5000) }),
      /not a WebAuthn response/,
    );

    const twice = await call('POST', '/v1/me/passkeys', {
      token: user.token,
      body: {
        name: 'Again',
        response: authenticator.register(await registrationOptions(user.token), { reuse: credential }),
      },
    });
    expectError(twice, 409, 'invalid_state');
    expect(await listPasskeys(other)).toEqual([]);
    expect(await listPasskeys(user)).toHaveLength(2);
  });
});

describe('signing in with a passkey', () => {
  it('answers a session of the passkey’s user, and marks the passkey used', async () => {
    const { user, authenticator, credential, passkey } = await withPasskey();
    const { challenge_id, options } = await signInOptions();
    // Discoverable credentials: no allowed list, so the authenticator offers what it holds.
    expect(options).toMatchObject({ rpId: 'localhost', userVerification: 'required', timeout: 300_000 });
    expect(options).not.toHaveProperty('allowCredentials.0');

    const signedIn = await call('POST', '/v1/sessions/passkey', {
      body: { challenge_id, response: authenticator.signIn(options, credential) },
    });
    expect(signedIn.status).toBe(201);
    expect(signedIn.body.data.user).toMatchObject({ id: user.user.id, email: user.email });
    expect(signedIn.body.data.session.token).toMatch(/^st_/);
    const me = await call('GET', '/v1/me', { token: signedIn.body.data.session.token });
    expect(me.body.data.user.id).toBe(user.user.id);
    const [used] = await listPasskeys(user);
    expect(used).toMatchObject({ id: passkey.id, last_used_at: expect.any(String) });
  });

  it('refuses a forged signature, another origin and a response to another challenge, and changes nothing', async () => {
    const { user, authenticator, credential } = await withPasskey(
      new SoftwareAuthenticator({ origin: origin(), counts: true }),
    );
    expectRefused(await signIn(authenticator, credential, { forgeSignature: true }), /signature .* does not verify/);
    expectRefused(await signIn(authenticator, credential, { origin: 'https://evil.example' }), /origin/);
    const elsewhere = await signInOptions();
    expectRefused(
      await signIn(authenticator, credential, { challenge: elsewhere.options.challenge }),
      /another challenge/,
    );
    expect((await listPasskeys(user))[0]!.last_used_at).toBeNull();
    // The refused attempts moved no counter: the next signature (counter 4) still signs in.
    expect((await signIn(authenticator, credential)).status).toBe(201);
  });

  it('refuses a replayed counter and a used challenge', async () => {
    const { authenticator, credential } = await withPasskey(
      new SoftwareAuthenticator({ origin: origin(), counts: true }),
    );
    const { challenge_id, options } = await signInOptions();
    const body = { challenge_id, response: authenticator.signIn(options, credential) };
    expect((await call('POST', '/v1/sessions/passkey', { body })).status).toBe(201);
    expectRefused(await call('POST', '/v1/sessions/passkey', { body }), /challenge is unknown, used or expired/);
    // A fresh challenge signed with the counter already seen: a replay, or a cloned authenticator.
    expectRefused(await signIn(authenticator, credential, { counter: credential.counter }), /counter did not advance/);
  });

  it('signs in again and again with an authenticator that does not count', async () => {
    const { authenticator, credential } = await withPasskey();
    expect((await signIn(authenticator, credential)).status).toBe(201);
    expect((await signIn(authenticator, credential)).status).toBe(201);
    expect(credential.counter).toBe(0);
  });

  it('refuses an unknown or deleted passkey, and one naming another user', async () => {
    const { user, authenticator, credential, passkey } = await withPasskey();
    const other = await withPasskey();
    expectRefused(
      await signIn(authenticator, credential, { userHandle: Buffer.from(other.user.user.id).toString('base64url') }),
      /user handle/,
    );

    const stranger = new SoftwareAuthenticator({ origin: origin() });
    stranger.register({
      challenge: 'x',
      rp: { id: 'localhost', name: 'x' },
      user: { id: 'eA', name: 'x', displayName: 'x' },
    });
    expectRefused(await signIn(stranger, stranger.only()), /not registered here/);

    await call('DELETE', `/v1/me/passkeys/${passkey.id}`, { token: user.token });
    expectRefused(await signIn(authenticator, credential), /not registered here/);
  });

  it('refuses an unknown challenge id and a malformed response', async () => {
    const { authenticator, credential } = await withPasskey();
    const { options } = await signInOptions();
    expectRefused(
      await call('POST', '/v1/sessions/passkey', {
        body: {
          challenge_id: '00000000-0000-4000-8000-000000000000',
          response: authenticator.signIn(options, credential),
        },
      }),
      /challenge is unknown/,
    );
    expectError(
      await call('POST', '/v1/sessions/passkey', { body: { challenge_id: 'nope', response: {} } }),
      400,
      'invalid_request',
    );
  });
});
