import { describe, expect, it } from 'vitest';
import { issueToken, parseToken, secretMatches, tokenPrefix } from '../../shared/domain/secret-tokens.js';

const ID = '0b7f7a9e-3c52-4a57-9f3e-5a1d2c3b4e5f';

describe('secret tokens', () => {
  it('round-trips the kind and id and stores only a hash of the secret', () => {
    const { token, secretHash } = issueToken('sk', ID);
    expect(token).toMatch(/^sk_[0-9a-f]{32}_/);
    const parsed = parseToken(token)!;
    expect(parsed).toMatchObject({ kind: 'sk', id: ID });
    expect(secretHash).not.toContain(parsed.secret);
    expect(secretMatches(parsed.secret, secretHash)).toBe(true);
  });

  it('refuses a different secret for the same id', () => {
    const first = issueToken('st', ID);
    const second = issueToken('st', ID);
    expect(secretMatches(parseToken(second.token)!.secret, first.secretHash)).toBe(false);
  });

  it('does not parse made-up or truncated tokens', () => {
    const { token } = issueToken('st', ID);
    expect(parseToken(token.slice(0, -1))).toBeUndefined();
    expect(parseToken(`xx${token.slice(2)}`)).toBeUndefined();
    expect(parseToken('sk_live_abc')).toBeUndefined();
  });

  it('shows a prefix that identifies the key without revealing its secret', () => {
    const { token } = issueToken('sk', ID);
    expect(tokenPrefix(token)).toBe(`sk_${ID.replaceAll('-', '').slice(0, 8)}`);
  });
});
