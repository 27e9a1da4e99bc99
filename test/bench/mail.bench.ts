/**
 * `npm run bench:mail`: sign-up to mail, on the real local runtime (`--in-memory`: DynamoDB Local,
 * the stream poller, the mail consumer, the local mailbox). Each of SIGNUPS sign-ups, one after
 * another, is followed by reads of `GET /local/mail?to=` every 20 ms until its verification mail is
 * listed; the time from sending the sign-up to the listing, p50 / p99 / max (goal: every mail within
 * 5 s, API.md). The sign-up's own latency is shown beside it. Not a test: it measures, it asserts nothing.
 */
import os from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { percentile, printTable, startStack, verdict } from './support.js';

const SIGNUPS = Number(process.env.BENCH_SIGNUPS ?? 50);
const GOAL_MS = 5000;
const POLL_MS = 20;

async function signUpToMail(base: string, i: number): Promise<{ signUp: number; mail: number }> {
  const email = `bench-mail-${i}-${Date.now()}@example.com`;
  const started = performance.now();
  const response = await fetch(`${base}/v1/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'correct horse battery', name: 'Bench' }),
  });
  if (response.status !== 201) throw new Error(`sign-up answered ${response.status}: ${await response.text()}`);
  const signUp = performance.now() - started;
  for (;;) {
    const listed = (await (await fetch(`${base}/local/mail?to=${encodeURIComponent(email)}`)).json()) as {
      data: { items: unknown[] };
    };
    if (listed.data.items.length > 0) return { signUp, mail: performance.now() - started };
    if (performance.now() - started > 30_000) throw new Error(`no mail to ${email} within 30 s`);
    await delay(POLL_MS);
  }
}

const stack = await startStack({ PASSWORD_SCRYPT_LOG2_N: '14' });
try {
  const base = stack.server.baseUrl;
  await signUpToMail(base, -1); // warm-up: the first request loads the handlers
  const signUps: number[] = [];
  const mails: number[] = [];
  for (let i = 0; i < SIGNUPS; i++) {
    const { signUp, mail } = await signUpToMail(base, i);
    signUps.push(signUp);
    mails.push(mail);
  }
  signUps.sort((a, b) => a - b);
  mails.sort((a, b) => a - b);
  printTable(
    `Sign-up to mail in the local mailbox (${SIGNUPS} sign-ups one after another; ${os.cpus().length} cores; scrypt N=2^14)`,
    ['measure', 'p50 ms', 'p99 ms', 'max ms', 'goal', 'verdict'],
    [
      ['POST /v1/users answered', percentile(signUps, 50), percentile(signUps, 99), signUps.at(-1)!, '', ''],
      [
        'mail listed at /local/mail',
        percentile(mails, 50),
        percentile(mails, 99),
        mails.at(-1)!,
        `≤ ${GOAL_MS}`,
        verdict(
          mails.at(-1)! <= GOAL_MS,
          `p50 ${Math.round(percentile(mails, 50))} ms: the sign-up, the stream poller's read, two GetItems, the file and an UpdateItem`,
          "time the poller's read and the consumer's steps apart to find the largest share",
        ),
      ],
    ],
  );
} finally {
  await stack.stop();
}
