import { describe, expect, it } from 'vitest';
import { handler as getMe } from '../../functions/identity/get-me.js';
import { newId } from '../../shared/domain/ids.js';
import { issueToken, parseToken } from '../../shared/domain/secret-tokens.js';
import { endUserSessions, getSession, putSession } from '../../shared/store/sessions.js';
import { apiEvent, invoke } from '../support/events.js';
import { storedSession } from '../support/stored.js';

describe('sessions in DynamoDB', () => {
  it('refuses an expired session even before DynamoDB TTL removes it, with a hint to log in again', async () => {
    const { id, token } = await storedSession(newId(), new Date(Date.now() - 60_000).toISOString());
    expect(await getSession(id)).toBeDefined();
    const result = await invoke(getMe, apiEvent({ method: 'GET', headers: { authorization: `Bearer ${token}` } }));
    expect(result).toMatchObject({ status: 401, body: { error_code: 'unauthorized' } });
    expect(result.body.agent.hint).toContain('expired');
  });

  it('stores only a hash of the token and an epoch TTL', async () => {
    const id = newId();
    const { token, secretHash } = issueToken('st', id);
    const expires = new Date(Date.now() + 86_400_000).toISOString();
    await putSession({
      id,
      user_id: newId(),
      secret_hash: secretHash,
      created_at: new Date().toISOString(),
      expires_at: expires,
      last_used_at: new Date().toISOString(),
      user_agent: null,
      ip_prefix: null,
      method: 'password' as const,
      second_factor: null,
    });
    const stored = await getSession(id);
    // The whole secret: base64url may contain '_', so splitting the token on '_' could test a fragment.
    expect(JSON.stringify(stored)).not.toContain(parseToken(token)!.secret);
    expect(stored?.secret_hash).toBe(secretHash);
  });

  it("ends every session of a user but the one kept, past one batch write's 25, and no one else's", async () => {
    const userId = newId();
    const now = new Date().toISOString();
    const expires = new Date(Date.now() + 86_400_000).toISOString();
    const session = (user_id: string) => ({
      id: newId(),
      user_id,
      secret_hash: 'h',
      created_at: now,
      expires_at: expires,
      last_used_at: now,
      user_agent: null,
      ip_prefix: null,
      method: 'password' as const,
      second_factor: null,
    });
    const sessions = Array.from({ length: 30 }, () => session(userId));
    const other = session(newId());
    await Promise.all([...sessions, other].map(putSession));
    const kept = sessions[0]!;
    expect(await endUserSessions(userId, kept.id)).toBe(29);
    const left = await Promise.all(sessions.map((s) => getSession(s.id)));
    expect(left.filter(Boolean).map((s) => s!.id)).toEqual([kept.id]);
    expect(await getSession(other.id)).toBeDefined();
  });
});
