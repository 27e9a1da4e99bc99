import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { ensureTable } from '../../infra/local/dynamodb-local.js';
import { unique } from '../support/api.js';
import { codeAt, enableTotp } from '../support/second-factor.js';
import { startLocalServer, type LocalServer } from '../../infra/local/server-process.js';

/**
 * A server of its own with small limits (and its own table, so its delivery runtime does not
 * fan out the shared server's events). Windows are a day long so none rolls over mid-test.
 * Each test calls from its own loopback addresses (127.0.0.0/8 all reach the server), so one
 * test's counts are not another's.
 */
const LIMITS = {
  RATE_LIMIT_CREDENTIAL: '5/86400',
  RATE_LIMIT_IP: '5/86400',
  RATE_LIMIT_LOGIN_EMAIL: '3/86400',
  RATE_LIMIT_LOGIN_IP: '6/86400',
  RATE_LIMIT_SIGNUP_EMAIL: '2/86400',
  RATE_LIMIT_SIGNUP_IP: '4/86400',
};

let server: LocalServer;
const agents: Agent[] = [];

beforeAll(async () => {
  const tableName = 'social-network-rate-limits-test';
  await ensureTable(inject('dynamodbEndpoint'), tableName);
  server = await startLocalServer({
    DYNAMODB_ENDPOINT: inject('dynamodbEndpoint'),
    TABLE_NAME: tableName,
    WEBHOOK_URL_POLICY: 'allow-local',
    PASSWORD_SCRYPT_LOG2_N: '12',
    ...LIMITS,
  });
});
afterAll(async () => {
  await server?.stop();
  await Promise.all(agents.map((agent) => agent.close()));
});

interface Reply {
  status: number;
  headers: Headers;
  body: { ok: boolean; data: any; error_code?: string; agent: { hint?: string } };
}

/** A client on its own loopback address. */
function client(address: string) {
  const agent = new Agent({ localAddress: address });
  agents.push(agent);
  return async (method: string, path: string, options: { body?: unknown; token?: string } = {}): Promise<Reply> => {
    const headers: Record<string, string> = {};
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const response = await undiciFetch(`${server.baseUrl}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      dispatcher: agent,
    });
    return {
      status: response.status,
      headers: response.headers as unknown as Headers,
      body: (await response.json()) as Reply['body'],
    };
  };
}

async function signUpAndLogIn(from: ReturnType<typeof client>) {
  const email = `${unique('rl')}@example.com`;
  const password = 'long enough pw';
  const created = await from('POST', '/v1/users', { body: { email, password, name: 'Rae' } });
  expect(created.status).toBe(201);
  const session = await from('POST', '/v1/sessions', { body: { email, password } });
  expect(session.status).toBe(201);
  return {
    token: session.body.data.session.token as string,
    workspaceId: created.body.data.workspace.id as string,
    email,
    password,
  };
}

function expectLimited(reply: Reply, windowSeconds = 86_400) {
  expect(reply.status).toBe(429);
  expect(reply.body).toMatchObject({ ok: false, data: null, error_code: 'rate_limited' });
  const retryAfter = Number(reply.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
}

describe('rate limits', () => {
  it('puts RateLimit and RateLimit-Policy on every response: success, error and unknown route', async () => {
    const from = client('127.0.0.2');
    const ok = await from('GET', '/v1/health');
    expect(ok.status).toBe(200);
    expect(ok.headers.get('ratelimit-policy')).toBe('"ip";q=5;w=86400');
    expect(ok.headers.get('ratelimit')).toMatch(/^"ip";r=4;t=\d+$/);
    const unauthorized = await from('GET', '/v1/me', { token: 'st_nope' });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('ratelimit')).toMatch(/^"ip";r=3;t=\d+$/);
    const notFound = await from('GET', '/v1/nowhere');
    expect(notFound.status).toBe(404);
    expect(notFound.headers.get('ratelimit')).toMatch(/^"ip";r=2;t=\d+$/);
  });

  it('limits anonymous calls per client IP, and one IP over its limit leaves another untouched', async () => {
    const first = client('127.0.0.3');
    const second = client('127.0.0.4');
    for (let i = 0; i < 5; i++) expect((await first('GET', '/v1/health')).status).toBe(200);
    const refused = await first('GET', '/v1/health');
    expectLimited(refused);
    expect(refused.headers.get('ratelimit')).toMatch(/^"ip";r=0;t=\d+$/);
    expect(Number(refused.headers.get('retry-after'))).toBe(
      Number(/t=(\d+)/.exec(refused.headers.get('ratelimit')!)![1]),
    );
    // A public read by an unknown profile id is refused the same way once over the limit.
    expectLimited(await first('GET', '/v1/profiles/6c2f9a3e-1b2c-4d5e-8f90-123456789abc'));

    const other = await second('GET', '/v1/health');
    expect(other.status).toBe(200);
    expect(other.headers.get('ratelimit')).toMatch(/^"ip";r=4;/);
  });

  it('limits each credential on its own: an exhausted session refuses before any work, another session goes on', async () => {
    const from = client('127.0.0.5');
    const ann = await signUpAndLogIn(from);
    const bob = await signUpAndLogIn(from);

    const remaining: string[] = [];
    for (let i = 0; i < 5; i++) {
      const me = await from('GET', '/v1/me', { token: ann.token });
      expect(me.status).toBe(200);
      remaining.push(/r=(\d+)/.exec(me.headers.get('ratelimit')!)![1]!);
    }
    expect(remaining).toEqual(['4', '3', '2', '1', '0']);
    expect((await from('GET', '/v1/me', { token: ann.token })).headers.get('ratelimit-policy')).toBe(
      '"credential";q=5;w=86400',
    );

    // Over the limit, a create is refused before it runs: nothing is created.
    const username = unique('rl');
    const refused = await from('POST', '/v1/profiles', {
      token: ann.token,
      body: { type: 'human', username, name: 'Ann', call_name: 'Ann' },
    });
    expectLimited(refused);

    const bobMe = await from('GET', '/v1/me', { token: bob.token });
    expect(bobMe.status).toBe(200);
    expect(bobMe.headers.get('ratelimit')).toMatch(/^"credential";r=4;/);
    // The username Ann's refused request asked for is still free.
    const bobProfile = await from('POST', '/v1/profiles', {
      token: bob.token,
      body: { type: 'human', username, name: 'Bob', call_name: 'Bob' },
    });
    expect(bobProfile.status).toBe(201);
  });

  it('limits log-in failures per email, and log-in attempts per client IP across emails', async () => {
    const from = client('127.0.0.6');
    const email = `${unique('rl')}@example.com`;
    expect(
      (await from('POST', '/v1/users', { body: { email, password: 'long enough pw', name: 'Guessed' } })).status,
    ).toBe(201);
    for (let i = 0; i < 3; i++)
      expect((await from('POST', '/v1/sessions', { body: { email, password: `guess number ${i}` } })).status).toBe(401);
    // The right password no longer helps this email, from this or any other address.
    const refused = await from('POST', '/v1/sessions', {
      body: { email: email.toUpperCase(), password: 'long enough pw' },
    });
    expectLimited(refused);
    // The per-email count is of failures, kept by the log-in itself: the RateLimit fields describe the IP's.
    expect(refused.headers.get('ratelimit-policy')).toBe('"login_ip";q=6;w=86400');
    expectLimited(await client('127.0.0.7')('POST', '/v1/sessions', { body: { email, password: 'long enough pw' } }));

    // Per IP: six attempts on six other emails, then the seventh is refused; another IP is not.
    const sprayer = client('127.0.0.8');
    for (let i = 0; i < 6; i++) {
      expect(
        (
          await sprayer('POST', '/v1/sessions', {
            body: { email: `${unique('nobody')}@example.com`, password: 'whatever123' },
          })
        ).status,
      ).toBe(401);
    }
    expectLimited(
      await sprayer('POST', '/v1/sessions', {
        body: { email: `${unique('nobody')}@example.com`, password: 'whatever123' },
      }),
    );
    expect(
      (
        await client('127.0.0.9')('POST', '/v1/sessions', {
          body: { email: `${unique('nobody')}@example.com`, password: 'whatever123' },
        })
      ).status,
    ).toBe(401);
  });

  it('counts right passwords as no failure, and a right password waiting for its code neither', async () => {
    const ann = await signUpAndLogIn(client('127.0.0.30'));
    const email = ann.email;
    // Five right log-ins from five addresses: past the limit of 3, none is refused.
    for (let i = 0; i < 5; i++) {
      const from = client(`127.0.0.${31 + i}`);
      expect((await from('POST', '/v1/sessions', { body: { email, password: ann.password } })).status).toBe(201);
    }
    const { secret } = await enableTotp(ann, client('127.0.0.36'));
    for (let i = 0; i < 4; i++) {
      const asked = await client('127.0.0.37')('POST', '/v1/sessions', { body: { email, password: ann.password } });
      expect([i, asked.body.error_code]).toEqual([i, 'second_factor_required']);
    }
    expect(
      (
        await client('127.0.0.38')('POST', '/v1/sessions', {
          body: { email, password: ann.password, totp_code: codeAt(secret) },
        })
      ).status,
    ).toBe(201);
  });

  it('counts wrong passwords and wrong codes from several addresses, then refuses even the right password and code', async () => {
    const ann = await signUpAndLogIn(client('127.0.0.40'));
    const { secret } = await enableTotp(ann, client('127.0.0.40'));
    const email = ann.email;
    const wrongCode = codeAt(secret) === '000000' ? '111111' : '000000';
    const failures = [
      await client('127.0.0.41')('POST', '/v1/sessions', { body: { email, password: 'not the password' } }),
      await client('127.0.0.42')('POST', '/v1/sessions', {
        body: { email, password: ann.password, totp_code: wrongCode },
      }),
      await client('127.0.0.43')('POST', '/v1/sessions', {
        body: { email, password: ann.password, recovery_code: 'nope' },
      }),
    ];
    expect(failures.map((f) => f.body.error_code)).toEqual([
      'invalid_credentials',
      'invalid_credentials',
      'invalid_credentials',
    ]);

    const refused = await client('127.0.0.44')('POST', '/v1/sessions', {
      body: { email, password: ann.password, totp_code: codeAt(secret) },
    });
    expectLimited(refused);
    expectLimited(await client('127.0.0.45')('POST', '/v1/sessions', { body: { email, password: ann.password } }));
    // The session already held is untouched: the throttle is on logging in, not on the account.
    expect((await client('127.0.0.46')('GET', '/v1/me', { token: ann.token })).status).toBe(200);
  });

  it('counts failures exactly when they arrive at once: the limit is evaluated, the rest refused', async () => {
    const ann = await signUpAndLogIn(client('127.0.0.50'));
    const attempts = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        client(`127.0.0.${51 + (i % 3)}`)('POST', '/v1/sessions', {
          body: { email: ann.email, password: `wrong guess ${i}` },
        }),
      ),
    );
    const codes = attempts.map((a) => a.body.error_code).sort();
    expect(codes).toEqual([...Array(3).fill('invalid_credentials'), ...Array(9).fill('rate_limited')]);
  });

  it('limits sign-up per client IP and per email', async () => {
    const from = client('127.0.0.10');
    for (let i = 0; i < 4; i++) {
      expect(
        (
          await from('POST', '/v1/users', {
            body: { email: `${unique('rl')}@example.com`, password: 'long enough pw', name: 'N' },
          })
        ).status,
      ).toBe(201);
    }
    const email = `${unique('rl')}@example.com`;
    const refused = await from('POST', '/v1/users', { body: { email, password: 'long enough pw', name: 'N' } });
    expectLimited(refused);
    // Refused before the account was made: the email is still free from another address
    // (the refused attempt counted for the email, so this is its second and last).
    const elsewhere = client('127.0.0.11');
    expect(
      (await elsewhere('POST', '/v1/users', { body: { email, password: 'long enough pw', name: 'N' } })).status,
    ).toBe(201);
    const third = await client('127.0.0.12')('POST', '/v1/users', {
      body: { email, password: 'long enough pw', name: 'N' },
    });
    expectLimited(third);
    expect(third.headers.get('ratelimit')).toMatch(/^"signup_ip";r=3;t=\d+, "signup_email";r=0;t=\d+$/);
  });
});
