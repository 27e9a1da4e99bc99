/** Account mail without AWS: tokens, the mails' wording, SES's notifications, the SES adapter's exact command, the local .eml files. */
import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { fromEml, toEml } from '../../infra/local/local-mailbox.js';
import { emailChangeMail, passwordResetMail, verificationMail } from '../../shared/domain/account-mail.js';
import { newAccountToken, tokenUsable } from '../../shared/domain/account-tokens.js';
import { renderMail } from '../../shared/domain/mail.js';
import { suppressionsOf } from '../../shared/mail/ses-notifications.js';
import { SesMailSender } from '../../shared/ports/aws/ses-mail-sender.js';

const NOW = new Date('2026-11-27T12:00:00.000Z');
const BASE = 'https://api.example.com';
const minutes = (n: number) => new Date(NOW.getTime() + n * 60_000);
const user = { id: '8f1d7a30-4a5e-4c4b-9c1e-3f8d2b6a7c10', email: 'ada@example.com' };

describe('account tokens', () => {
  it('carry 256 bits of secret, stored only as a hash', () => {
    const { record, token } = newAccountToken(NOW, 'reset_password', { user_id: user.id, email: user.email });
    expect(token).toMatch(/^pr_[0-9a-f]{32}_[A-Za-z0-9_-]{43}$/);
    expect(JSON.stringify(record)).not.toContain(token.slice(-43));
    expect(record.expires_at).toBe(minutes(30).toISOString());
  });

  it('are usable only whole, of their kind, for an account, before they expire', () => {
    const { record, token } = newAccountToken(NOW, 'reset_password', { user_id: user.id, email: user.email });
    expect(tokenUsable(token, 'pr', record, minutes(29))).toBe(true);
    expect(tokenUsable(token, 'pr', record, minutes(30))).toBe(false);
    expect(tokenUsable(`${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`, 'pr', record, NOW)).toBe(false);
    expect(tokenUsable(token.replace(/^pr_/, 'ev_'), 'ev', record, NOW)).toBe(false);
    expect(tokenUsable(token, 'pr', undefined, NOW)).toBe(false);
    const other = newAccountToken(NOW, 'reset_password', { user_id: user.id, email: user.email });
    expect(tokenUsable(token, 'pr', other.record, NOW)).toBe(false);
    const nobody = newAccountToken(NOW, 'reset_password', { user_id: null, email: 'nobody@example.com' });
    expect(tokenUsable(nobody.token, 'pr', nobody.record, NOW)).toBe(false);
  });

  it('last 24 hours for an address', () => {
    const { record } = verificationMail(NOW, BASE, user);
    expect(record.expires_at).toBe(minutes(24 * 60).toISOString());
  });
});

describe('the mails', () => {
  it('carry the console link whole in the text, and never a password', () => {
    const { mails } = verificationMail(NOW, BASE, user);
    const mail = renderMail(mails[0]!);
    expect(mail.text).toContain(`${BASE}/console/verify-email?token=ev_`);
    expect(mail.html).toContain(`href="${BASE}/console/verify-email?token=ev_`);
    const reset = renderMail(passwordResetMail(NOW, BASE, user.email, user.id).mails[0]!);
    expect(reset.text).toMatch(/\/console\/reset-password\?token=pr_\S+\n$/);
  });

  it('tell the old address of a change without a link, the new one with it', () => {
    const { mails } = emailChangeMail(NOW, BASE, user, 'new@example.com');
    const [confirm, notice] = mails.map(renderMail);
    expect(confirm).toMatchObject({ to: 'new@example.com', subject: 'Confirm your new email address' });
    expect(confirm!.text).toContain('token=ev_');
    expect(notice).toMatchObject({ to: user.email });
    expect(notice!.text).toContain('new@example.com');
    expect(notice!.text).not.toContain('token=');
  });

  it('record a reset for an address no account has as never to be delivered', () => {
    expect(passwordResetMail(NOW, BASE, 'nobody@example.com', null).mails[0]!.deliver).toBe(false);
    expect(passwordResetMail(NOW, BASE, user.email, user.id).mails[0]!.deliver).toBe(true);
  });

  it('escape what they quote in HTML', () => {
    const { mails } = emailChangeMail(NOW, BASE, user, 'a<b>@example.com');
    expect(renderMail(mails[1]!).html).toContain('a&lt;b&gt;@example.com');
  });
});

describe('SES notifications', () => {
  const sns = (event: unknown) => JSON.stringify(event);

  it('mark permanently bounced and complaining recipients, lowercased', () => {
    const bounce = sns({
      eventType: 'Bounce',
      bounce: { bounceType: 'Permanent', bouncedRecipients: [{ emailAddress: 'Gone@Example.com' }] },
    });
    expect(suppressionsOf(bounce, NOW)).toEqual([
      { email: 'gone@example.com', reason: 'bounce', at: NOW.toISOString() },
    ]);
    const complaint = sns({
      notificationType: 'Complaint',
      complaint: { complainedRecipients: [{ emailAddress: 'x@example.com' }] },
    });
    expect(suppressionsOf(complaint, NOW)).toEqual([
      { email: 'x@example.com', reason: 'complaint', at: NOW.toISOString() },
    ]);
  });

  it('mark nobody for a transient bounce, a delivery, or a message that is no SES event', () => {
    const transient = sns({
      eventType: 'Bounce',
      bounce: { bounceType: 'Transient', bouncedRecipients: [{ emailAddress: 'full@example.com' }] },
    });
    expect(suppressionsOf(transient, NOW)).toEqual([]);
    expect(suppressionsOf(sns({ eventType: 'Delivery' }), NOW)).toEqual([]);
    expect(suppressionsOf('not json', NOW)).toEqual([]);
  });
});

describe('SesMailSender', () => {
  const ses = mockClient(SESv2Client);
  beforeEach(() => ses.reset());

  it('sends one SendEmail from the configured sender through the configuration set', async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: 'm-1' });
    const mail = renderMail(verificationMail(NOW, BASE, user).mails[0]!);
    await new SesMailSender({
      from: 'Social <no-reply@example.com>',
      configurationSet: 'mail-events',
      client: new SESv2Client({}),
    }).send(mail);
    const calls = ses.commandCalls(SendEmailCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input).toEqual({
      FromEmailAddress: 'Social <no-reply@example.com>',
      Destination: { ToAddresses: [user.email] },
      Content: {
        Simple: {
          Subject: { Data: 'Verify your email address', Charset: 'UTF-8' },
          Body: { Text: { Data: mail.text, Charset: 'UTF-8' }, Html: { Data: mail.html, Charset: 'UTF-8' } },
        },
      },
      ConfigurationSetName: 'mail-events',
      EmailTags: [{ Name: 'mail_id', Value: mail.id }],
    });
  });

  it('lets a refusal of SES fail the send (the stream retries it)', async () => {
    ses.on(SendEmailCommand).rejects(new Error('Throttling'));
    const mail = renderMail(verificationMail(NOW, BASE, user).mails[0]!);
    await expect(
      new SesMailSender({ from: 'a@example.com', configurationSet: undefined, client: new SESv2Client({}) }).send(mail),
    ).rejects.toThrow('Throttling');
  });
});

describe('the local mailbox files', () => {
  it('are RFC 5322 messages whose fields read back, the link whole in the file', () => {
    const mail = renderMail(verificationMail(NOW, BASE, user).mails[0]!);
    const eml = toEml({ ...mail, subject: 'Vérifiez votre adresse' }, 'Social <no-reply@localhost>', NOW);
    expect(eml).toMatch(/^Message-ID: <.+@localhost>\r\nDate: Fri, 27 Nov 2026 12:00:00 \+0000\r\n/);
    expect(eml).toContain('MIME-Version: 1.0\r\n');
    expect(eml).toContain(mail.text.trim().split('\n').at(-1));
    expect(fromEml(eml)).toEqual({
      id: mail.id,
      to: user.email,
      subject: 'Vérifiez votre adresse',
      text: mail.text,
      html: mail.html,
      sent_at: NOW.toISOString(),
    });
  });
});
