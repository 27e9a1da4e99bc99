import { describe, expect, it } from 'vitest';
import { newSession, sessionTouch } from '../../shared/domain/entities.js';
import { ipPrefix } from '../../shared/domain/ip-prefix.js';
import { sessionClientOf } from '../../shared/http/session-client.js';
import { apiEvent } from '../support/events.js';
import { issueRecoveryCodes, recoveryCodeHash } from '../../shared/domain/recovery-codes.js';
import { checkSecondFactor, recoveryCodesLeft, totpEnabled } from '../../shared/domain/second-factor.js';
import { newTotpSecret, totpCode, totpStep } from '../../shared/domain/totp.js';

// RFC 6238 appendix B's SHA-1 secret ("12345678901234567890") in base32, and its 59 s vector (8 digits: 94287082).
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('TOTP', () => {
  it("gives RFC 6238's test vector as 6 digits", () => {
    expect(totpCode(RFC_SECRET, new Date(59_000))).toBe('287082');
  });

  it('accepts the step before and after now, not two away, and says which step a code is of', () => {
    const now = new Date(1_800_000_015_000);
    const step = Math.floor(now.getTime() / 30_000);
    const at = (steps: number) => totpCode(RFC_SECRET, new Date(now.getTime() + steps * 30_000));
    expect([-1, 0, 1].map((s) => totpStep(RFC_SECRET, at(s), now))).toEqual([step - 1, step, step + 1]);
    expect(totpStep(RFC_SECRET, at(2), now)).toBeUndefined();
    expect(totpStep(RFC_SECRET, at(-2), now)).toBeUndefined();
    expect(totpStep(RFC_SECRET, ' 287082', now)).toBeUndefined();
  });

  it('makes 160-bit base32 secrets, each new', () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(newTotpSecret()).not.toBe(secret);
  });
});

describe('recovery codes', () => {
  it('issues ten distinct codes of 140 bits and keeps only their hashes', () => {
    const { codes, hashes } = issueRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-7]{7}(-[a-z2-7]{7}){3}$/);
    expect(hashes).toEqual(codes.map(recoveryCodeHash));
    expect(hashes.join()).not.toContain(codes[0]!.slice(0, 7));
  });

  it('reads a code typed in another case, with spaces or without dashes', () => {
    const [code] = issueRecoveryCodes().codes;
    const hash = recoveryCodeHash(code!);
    expect(recoveryCodeHash(code!.toUpperCase())).toBe(hash);
    expect(recoveryCodeHash(code!.replaceAll('-', ' '))).toBe(hash);
    expect(recoveryCodeHash(code!.replaceAll('-', ''))).toBe(hash);
  });
});

describe('checking a second factor', () => {
  const now = new Date(1_800_000_015_000);
  const step = Math.floor(now.getTime() / 30_000);
  const { codes, hashes } = issueRecoveryCodes();
  const user = {
    totp_secret: RFC_SECRET,
    totp_last_step: step - 1,
    recovery_codes: Object.fromEntries(hashes.map((h) => [h, true])),
  };

  it('passes everything when none is on, and says how many codes are left', () => {
    expect(checkSecondFactor({}, { totp_code: '000000' }, now)).toEqual({ outcome: 'not_enabled' });
    expect([totpEnabled({}), recoveryCodesLeft({})]).toEqual([false, 0]);
    expect([totpEnabled(user), recoveryCodesLeft(user)]).toEqual([true, 10]);
  });

  it('asks for a code, takes a later step once, and refuses a replayed step or a wrong code', () => {
    expect(checkSecondFactor(user, {}, now)).toEqual({ outcome: 'missing' });
    expect(checkSecondFactor(user, { totp_code: totpCode(RFC_SECRET, now) }, now)).toEqual({
      outcome: 'totp',
      secret: RFC_SECRET,
      step,
    });
    const lastUsed = totpCode(RFC_SECRET, new Date(now.getTime() - 30_000));
    expect(checkSecondFactor(user, { totp_code: lastUsed }, now)).toEqual({ outcome: 'wrong' });
    expect(checkSecondFactor(user, { totp_code: '12345' }, now)).toEqual({ outcome: 'wrong' });
  });

  it('takes an unused recovery code and refuses one that is not (or no longer) there', () => {
    expect(checkSecondFactor(user, { recovery_code: codes[2]! }, now)).toEqual({
      outcome: 'recovery_code',
      secret: RFC_SECRET,
      hash: hashes[2],
    });
    const spent = { ...user, recovery_codes: { [hashes[0]!]: true } };
    expect(checkSecondFactor(spent, { recovery_code: codes[2]! }, now)).toEqual({ outcome: 'wrong' });
    expect(checkSecondFactor(user, { recovery_code: '__proto__' }, now)).toEqual({ outcome: 'wrong' });
  });
});

describe('sessions as their list shows them', () => {
  it('keeps the network of the address, not the address', () => {
    expect(ipPrefix('203.0.113.77')).toBe('203.0.113.0/24');
    expect(ipPrefix('::ffff:198.51.100.9')).toBe('198.51.100.0/24');
    expect(ipPrefix('2001:db8:abcd:12:1::5')).toBe('2001:db8:abcd::/48');
    expect(ipPrefix('not an address')).toBeNull();
  });

  it('records how the person logged in, and moves last_used_at only when it is 10 minutes old', () => {
    const now = new Date('2026-11-27T12:00:00.000Z');
    const session = newSession(now, {
      id: 's',
      user_id: 'u',
      secret_hash: 'h',
      method: 'passkey',
      second_factor: null,
      client: sessionClientOf(apiEvent({ method: 'POST', headers: { 'user-agent': 'x'.repeat(300) } })),
    });
    // The test event's source address is 127.0.0.1.
    expect(session).toMatchObject({ method: 'passkey', ip_prefix: '127.0.0.0/24', last_used_at: now.toISOString() });
    expect(session.user_agent).toHaveLength(256);
    expect(sessionClientOf(apiEvent({ method: 'POST', headers: { 'user-agent': '' } }))).toEqual({
      user_agent: null,
      ip_prefix: '127.0.0.0/24',
    });
    expect(sessionTouch(session, new Date('2026-11-27T12:09:59.999Z'))).toBeUndefined();
    expect(sessionTouch(session, new Date('2026-11-27T12:10:00.000Z'))).toEqual({
      touched: '2026-11-27T12:10:00.000Z',
      staleBefore: '2026-11-27T12:00:00.000Z',
    });
  });
});
