import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ensureTable } from '../../infra/local/dynamodb-local.js';
import { findCredential } from '../../shared/store/users.js';
import { call, unique } from '../support/api.js';
import { GENEROUS_RATE_LIMITS } from '../support/global-setup.js';
import { startLocalServer, type LocalServer } from '../../infra/local/server-process.js';

/**
 * Two servers on one table of their own: one hashing at the old cost, one at a raised cost, as
 * before and after a deployment that raises PASSWORD_SCRYPT_LOG2_N.
 */
const TABLE = 'social-network-password-test';
let before: LocalServer;
let after: LocalServer;

beforeAll(async () => {
  await ensureTable(inject('dynamodbEndpoint'), TABLE);
  const env = { DYNAMODB_ENDPOINT: inject('dynamodbEndpoint'), TABLE_NAME: TABLE, ...GENEROUS_RATE_LIMITS };
  [before, after] = await Promise.all([
    startLocalServer({ ...env, PASSWORD_SCRYPT_LOG2_N: '12' }),
    startLocalServer({ ...env, PASSWORD_SCRYPT_LOG2_N: '13' }),
  ]);
  // This file's store reads go to the same table.
  process.env.TABLE_NAME = TABLE;
});
afterAll(async () => {
  await Promise.all([before?.stop(), after?.stop()]);
});

const storedCost = async (email: string) =>
  (await findCredential(email))!.password_hash.split('$').slice(1, 4).join('$');

describe('password hashes follow the cost', () => {
  it('a log-in after the cost rose replaces the hash; the password keeps working at either cost', async () => {
    const email = `${unique('up')}@example.com`;
    const password = 'long enough pw';
    expect(
      (await call('POST', '/v1/users', { baseUrl: before.baseUrl, body: { email, password, name: 'Up' } })).status,
    ).toBe(201);
    expect(await storedCost(email)).toBe('4096$8$1');

    // A wrong password upgrades nothing.
    expect(
      (await call('POST', '/v1/sessions', { baseUrl: after.baseUrl, body: { email, password: 'wrong password' } }))
        .status,
    ).toBe(401);
    expect(await storedCost(email)).toBe('4096$8$1');

    expect((await call('POST', '/v1/sessions', { baseUrl: after.baseUrl, body: { email, password } })).status).toBe(
      201,
    );
    expect(await storedCost(email)).toBe('8192$8$1');
    expect((await call('POST', '/v1/sessions', { baseUrl: after.baseUrl, body: { email, password } })).status).toBe(
      201,
    );

    // A server still at the old cost verifies the stronger hash and does not weaken it.
    expect((await call('POST', '/v1/sessions', { baseUrl: before.baseUrl, body: { email, password } })).status).toBe(
      201,
    );
    expect(await storedCost(email)).toBe('8192$8$1');
  });
});
