/**
 * `npm run bench:second-factor`: what a log-in with a second factor costs in DynamoDB against a
 * plain one, COUNTED, on a throw-away stack. The log-in route is served in this process with an
 * SDK middleware on the store's client (dynamodb-calls.ts) recording every call. Goal (issue 31):
 * no round trip waited for one after another beyond a plain log-in's: the code is checked from
 * the user item the log-in reads anyway, and spent in one transaction with the session's put.
 */
import { randomUUID } from 'node:crypto';
import { sequentialRoundTrips, type DynamoDbCall } from '../support/dynamodb-calls.js';
import { api, printTable, startCountedServer, startStack, verdict } from './support.js';

/** Log-ins of each kind whose calls are counted (each TOTP log-in needs an account of its own: a code works once). */
const COUNTED = Number(process.env.BENCH_COUNTED ?? 10);

interface Account {
  email: string;
  password: string;
  secret?: string;
  recoveryCodes?: string[];
}

async function account(base: string, withTotp: boolean): Promise<Account> {
  const email = `bench_${randomUUID()}@example.com`;
  const password = 'bench password';
  await api(base, 'POST', '/v1/users', { email, password, name: 'Bench' });
  if (!withTotp) return { email, password };
  const { session } = await api(base, 'POST', '/v1/sessions', { email, password });
  const { totpCode } = await import('../../shared/domain/totp.js');
  const { secret } = await api(base, 'POST', '/v1/me/totp', { password }, session.token);
  // The step before now's: the counted log-in uses now's code.
  const code = totpCode(secret, new Date(Date.now() - 30_000));
  const { recovery_codes } = await api(base, 'POST', '/v1/me/totp/confirm', { code }, session.token);
  return { email, password, secret, recoveryCodes: recovery_codes };
}

async function main() {
  // Test-cost scrypt in this process too: the counted server hashes as the stack's server does.
  process.env.PASSWORD_SCRYPT_LOG2_N = '12';
  const stack = await startStack({ PASSWORD_SCRYPT_LOG2_N: '12' });
  try {
    const served = await startCountedServer();
    const { base, recorder } = served;
    const { totpCode } = await import('../../shared/domain/totp.js');
    const kinds: { name: string; withTotp: boolean; body: (a: Account) => Record<string, string>; status: number }[] = [
      { name: 'plain log-in', withTotp: false, body: (a) => ({ email: a.email, password: a.password }), status: 201 },
      {
        name: 'password only, factor on (401 second_factor_required)',
        withTotp: true,
        body: (a) => ({ email: a.email, password: a.password }),
        status: 401,
      },
      {
        name: 'with totp_code',
        withTotp: true,
        body: (a) => ({ email: a.email, password: a.password, totp_code: totpCode(a.secret!, new Date()) }),
        status: 201,
      },
      {
        name: 'with recovery_code',
        withTotp: true,
        body: (a) => ({ email: a.email, password: a.password, recovery_code: a.recoveryCodes![0]! }),
        status: 201,
      },
    ];
    const rows: (string | number)[][] = [];
    let plainSequential = 0;
    try {
      for (const kind of kinds) {
        const accounts: Account[] = [];
        for (let i = 0; i <= COUNTED; i++) accounts.push(await account(base, kind.withTotp));
        const measured: DynamoDbCall[][] = [];
        for (const [i, a] of accounts.entries()) {
          recorder.reset();
          const response = await fetch(`${base}/v1/sessions`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(kind.body(a)),
          });
          if (response.status !== kind.status)
            throw new Error(`${kind.name}: ${response.status} ${await response.text()}`);
          // The first warms module state and connections.
          if (i > 0) measured.push([...recorder.calls]);
        }
        const chains = measured.map((calls) => sequentialRoundTrips(calls)).sort((a, b) => a - b);
        const sequential = chains[Math.floor(chains.length / 2)]!;
        if (kind.name === 'plain log-in') plainSequential = sequential;
        const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
        const typical = measured.at(-1)!.map((call) => call.command);
        rows.push([
          kind.name,
          typical.join(' + '),
          mean(measured.map((calls) => calls.length)).toFixed(1),
          `${sequential} (max ${chains.at(-1)})`,
          mean(measured.map((calls) => calls.reduce((sum, call) => sum + call.readUnits, 0))),
          mean(measured.map((calls) => calls.reduce((sum, call) => sum + call.writeUnits, 0))),
          `≤ ${plainSequential} sequential`,
          verdict(
            sequential <= plainSequential,
            `${sequential} sequential`,
            "read the second factor's items in the log-in's first BatchGetItem",
          ),
        ]);
      }
    } finally {
      served.close();
    }
    printTable(
      `Log-in with a second factor: DynamoDB calls of POST /v1/sessions counted on the client over ${COUNTED} log-ins of each kind (the IP window booking and the account throttle's booking and give-back included): calls in start order, mean calls, the longest chain of calls one after another (median), mean read and write units as DynamoDB Local reports them`,
      ['log-in', 'calls', 'calls (mean)', 'sequential (median)', 'RRU', 'WRU', 'goal', ''],
      rows,
    );
  } finally {
    await stack.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
