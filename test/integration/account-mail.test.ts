/**
 * Account mail against DynamoDB Local, in process: the reset's equal work for known and unknown
 * addresses, an expired token, and the mail consumer's once-only send, suppression and logs.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ensureTable } from '../../infra/local/dynamodb-local.js';
import { handler as confirmReset } from '../../functions/password-resets/confirm-password-reset.js';
import { handler as requestReset } from '../../functions/password-resets/request-password-reset.js';
import { handler as createUser } from '../../functions/identity/create-user.js';
import { passwordResetMail } from '../../shared/domain/account-mail.js';
import type { OutgoingMail } from '../../shared/domain/mail.js';
import { logger } from '../../shared/logger.js';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { sendMailHandler, sendQueuedMail } from '../../shared/mail/send-queued-mail.js';
import { entities } from '../../shared/store/entities.js';
import { itemOf } from '../../shared/store/items.js';
import { issueAccountToken } from '../../shared/store/account-tokens.js';
import { db } from '../../shared/store/client.js';
import { takeLoginAttempt } from '../../shared/store/login-throttle.js';
import { suppressAddress } from '../../shared/store/mail.js';
import { recordDynamoDbCalls } from '../support/dynamodb-calls.js';
import { apiEvent, invoke } from '../support/events.js';
import { unique } from '../support/api.js';

const PASSWORD = 'correct horse battery';
const post = (body: unknown) =>
  apiEvent({ body: JSON.stringify(body), headers: { 'content-type': 'application/json', host: 'localhost' } });

async function signUp(): Promise<{ id: string; email: string }> {
  const email = `${unique('reset')}@example.com`;
  const created = await invoke(createUser, post({ email, password: PASSWORD, name: 'Ada' }));
  expect(created.status).toBe(201);
  return { id: created.body.data.user.id as string, email };
}

/** A sender that keeps what it was given. */
const recordingSender = () => {
  const sent: OutgoingMail[] = [];
  return { sent, send: async (mail: OutgoingMail) => void sent.push(mail) };
};

// A table of its own: the test server's mail consumer polls the shared table's stream, and would
// send (and settle) these mails before the tests' own consumer calls.
beforeAll(async () => {
  process.env.TABLE_NAME = unique('account_mail');
  await ensureTable(process.env.DYNAMODB_ENDPOINT!, process.env.TABLE_NAME);
});

afterEach(() => vi.restoreAllMocks());

describe('password reset request', () => {
  it('does the same DynamoDB work for an address with an account and one without', async () => {
    const known = await signUp();
    const recorder = recordDynamoDbCalls(db());
    const work = async (email: string) => {
      recorder.reset();
      const answer = await invoke(requestReset, post({ email }));
      return {
        answer: answer.body,
        calls: recorder.calls.map((c) => ({ command: c.command, reads: c.readUnits, writes: c.writeUnits })),
      };
    };
    const withAccount = await work(known.email);
    const without = await work(`${unique('nobody')}@example.com`);
    expect(without.answer).toEqual(withAccount.answer);
    expect(withAccount.calls.map((c) => c.command)).toContain('TransactWriteItems');
    expect(without.calls).toEqual(withAccount.calls);
  });

  it('refuses an expired token with 400 invalid_token', async () => {
    const known = await signUp();
    const longAgo = new Date(Date.now() - 31 * 60_000);
    const { record, mails } = passwordResetMail(longAgo, 'http://localhost', known.email, known.id);
    await issueAccountToken(record, []);
    const token = new URL(/http\S+/.exec(mails[0]!.link!)![0]).searchParams.get('token')!;
    const answer = await invoke(confirmReset, post({ token, password: 'another good password' }));
    expect(answer.status).toBe(400);
    expect(answer.body.error_code).toBe('invalid_token');
  });

  it("clears the account's log-in throttle", async () => {
    const known = await signUp();
    const now = new Date();
    for (let i = 0; i < 10; i++) expect((await takeLoginAttempt(known.email, now)).admitted).toBe(true);
    expect((await takeLoginAttempt(known.email, now)).admitted).toBe(false);
    const { record, mails } = passwordResetMail(now, 'http://localhost', known.email, known.id);
    await issueAccountToken(record, []);
    const token = new URL(mails[0]!.link!).searchParams.get('token')!;
    expect((await invoke(confirmReset, post({ token, password: 'another good password' }))).status).toBe(200);
    expect((await takeLoginAttempt(known.email, new Date())).admitted).toBe(true);
  });

  it('writes no token into a log line while the token is used', async () => {
    const known = await signUp();
    const { record, mails } = passwordResetMail(new Date(), 'http://localhost', known.email, known.id);
    await issueAccountToken(record, []);
    const token = new URL(mails[0]!.link!).searchParams.get('token')!;
    const lines: unknown[] = [];
    for (const level of ['debug', 'info', 'warn', 'error'] as const)
      vi.spyOn(logger, level).mockImplementation((...args: unknown[]) => void lines.push(args));
    expect((await invoke(confirmReset, post({ token, password: 'another good password' }))).status).toBe(200);
    expect((await invoke(confirmReset, post({ token, password: 'a third good password' }))).status).toBe(400);
    expect(JSON.stringify(lines)).not.toContain(token.slice(-43));
  });
});

describe('the mail consumer', () => {
  const mailFor = (email: string, userId: string | null) =>
    passwordResetMail(new Date(), 'http://localhost', email, userId);

  it('sends a mail once, even when its batch comes again, and logs no token', async () => {
    const email = `${unique('once')}@example.com`;
    const { record, mails } = mailFor(email, '00000000-0000-4000-8000-000000000001');
    await issueAccountToken(record, mails);
    const sender = recordingSender();
    const lines: unknown[] = [];
    vi.spyOn(logger, 'info').mockImplementation((...args: unknown[]) => void lines.push(args));
    expect(await sendQueuedMail(mails[0]!, sender, () => new Date())).toBe('sent');
    expect(await sendQueuedMail(mails[0]!, sender, () => new Date())).toBe('already_sent');
    expect(sender.sent).toHaveLength(1);
    expect(sender.sent[0]!.text).toContain(mails[0]!.link!);
    expect(JSON.stringify(lines)).not.toContain('token=');
  });

  it('sends nothing to a suppressed address, nor a mail recorded not to be delivered', async () => {
    const gone = `${unique('gone')}@example.com`;
    await suppressAddress({ email: gone, reason: 'bounce', at: new Date().toISOString() });
    const suppressed = mailFor(gone, '00000000-0000-4000-8000-000000000002');
    const nobody = mailFor(`${unique('nobody')}@example.com`, null);
    await issueAccountToken(suppressed.record, suppressed.mails);
    await issueAccountToken(nobody.record, nobody.mails);
    const sender = recordingSender();
    expect(await sendQueuedMail(suppressed.mails[0]!, sender, () => new Date())).toBe('suppressed');
    expect(await sendQueuedMail(nobody.mails[0]!, sender, () => new Date())).toBe('not_delivered');
    expect(sender.sent).toEqual([]);
  });
});

describe('the mail stream handler', () => {
  const record = (sequence: string, image: Record<string, unknown>, eventName: 'INSERT' | 'MODIFY' = 'INSERT') =>
    ({
      eventName,
      dynamodb: { SequenceNumber: sequence, NewImage: marshall(image, { removeUndefinedValues: true }) },
    }) as unknown as DynamoDBRecord;

  it('sends the INSERTed mail items of a batch, passes over other records, and reports a malformed one', async () => {
    const email = `${unique('stream')}@example.com`;
    const { record: token, mails } = passwordResetMail(
      new Date(),
      'http://localhost',
      email,
      '00000000-0000-4000-8000-000000000003',
    );
    await issueAccountToken(token, mails);
    const item = itemOf(entities.mail, mails[0]!);
    const sender = recordingSender();
    const handler = sendMailHandler({ sender });
    const answer = await handler({
      shardId: 'shard-1',
      Records: [
        record('100', item),
        record('200', item, 'MODIFY'),
        record('300', { ...itemOf(entities.accountToken, token) }),
        record('400', { ...item, template: 'no_such_template' }),
      ],
    });
    expect(sender.sent.map((m) => m.to)).toEqual([email]);
    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: '400' }] });
  });
});
