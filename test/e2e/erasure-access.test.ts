import { beforeAll, describe, expect, it } from 'vitest';
import { unique } from '../support/api.js';
import { itemText } from '../../shared/domain/erasure.js';
import {
  accessAndOperators,
  busyAccount,
  erasureServer,
  until,
  mediaTraces,
  scanTable,
  searchTraces,
  tableTraces,
  type BusyAccount,
  type Client,
} from '../support/erasure.js';

const stack = erasureServer('erasure-access');
const { env, dataDir } = stack;
let c: Client;
beforeAll(() => {
  c = stack.client;
});

const grantRead = (account: BusyAccount, grantId: string) =>
  c.send('GET', `/v1/profile-access/invitations/${grantId}`, c.as(account.other));

describe('erasing an account with access grants and operator links', () => {
  it('leaves no grant on either side and no operator link, and the agents read no operator', async () => {
    const account = await busyAccount(c);
    const { subject } = account;
    const made = await accessAndOperators(c, account);
    // Before: the grants read, the accepted agent names the subject as its operator and is listed.
    expect((await grantRead(account, made.grants[0]!)).status).toBe(200);
    expect((await c.send('GET', `/v1/profiles/${made.agent.profile.id}`)).body.data.operator.profile.id).toBe(
      subject.profile.id,
    );
    const listed = await c.send('GET', `/v1/profiles/${subject.profile.id}/agents`);
    expect(listed.body.data.items.map((p: { id: string }) => p.id)).toEqual([made.agent.profile.id]);
    // Every grant and link names the subject by id, so the scan below looks at each of them.
    const named = (await scanTable(env.DYNAMODB_ENDPOINT, env.TABLE_NAME)).filter((i) =>
      [...made.grants, ...made.links].some((id) => itemText(i).includes(id)),
    );
    expect(named.length).toBeGreaterThanOrEqual(made.grants.length + made.links.length);

    const deleted = await c.send('DELETE', '/v1/me', {
      token: subject.session,
      body: { password: subject.password, when: 'now' },
    });
    expect(deleted.status).toBe(200);

    const traces = await until(
      'traces in the table',
      () => tableTraces(env.DYNAMODB_ENDPOINT, env.TABLE_NAME, account),
      (t) => t.length === 0,
    );
    expect(traces).toEqual([]);
    expect(searchTraces(dataDir, account)).toEqual([]);
    expect(mediaTraces(dataDir, account)).toEqual([]);
    // No item names a grant or a link of the subject's any more, but what keeps the other side's record by the
    // grant's id alone (the scan above found no trace of the subject in it): the other workspaces' audit entries
    // of their own acts on it, and the managers' live event log, whose past events are theirs.
    const left = (await scanTable(env.DYNAMODB_ENDPOINT, env.TABLE_NAME)).filter(
      (i) =>
        i.entity !== 'audit_entry' &&
        i.entity !== 'live_event' &&
        [...made.grants, ...made.links].some((id) => itemText(i).includes(id)),
    );
    expect(left).toEqual([]);

    for (const grantId of made.grants) expect((await grantRead(account, grantId)).status).toBe(404);
    for (const agent of [made.agent, made.pendingAgent]) {
      const read = await c.send('GET', `/v1/profiles/${agent.profile.id}`);
      expect(read.status).toBe(200);
      expect(read.body.data.operator).toBeNull();
    }
    const agents = await c.send('GET', `/v1/profiles/${subject.profile.id}/agents`);
    expect(agents.status === 404 || agents.body.data.items.length === 0).toBe(true);
    // The agents may name another operator: no pending or accepted link of theirs is left.
    for (const agent of [made.agent, made.pendingAgent]) {
      const again = await c.send('POST', `/v1/profiles/${agent.profile.id}/operator`, {
        ...c.as(agent),
        body: { operator_profile_id: account.third.profile.id },
      });
      expect(again.status).toBe(201);
    }
  }, 240_000);
});

describe('deleting one busy profile of a workspace that keeps another', () => {
  it('leaves no trace of that profile, and the user, its session, workspace and other profile stay', async () => {
    const account = await busyAccount(c);
    const { subject } = account;
    await accessAndOperators(c, account);
    const keptName = unique('kept');
    const kept = await c.send('POST', '/v1/profiles', {
      token: subject.session,
      body: { type: 'human', username: keptName, name: 'Kept Profile', call_name: 'Kept' },
    });
    expect(kept.status).toBe(201);
    await until(
      'search documents',
      async () => searchTraces(dataDir, account).length,
      (n) => n > 0,
    );

    const deleted = await c.send('DELETE', `/v1/profiles/${subject.profile.id}`, {
      token: subject.session,
      body: { confirm_username: subject.profile.username },
    });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({ deletion: { status: 'in_progress' } });

    // The profile's needles: its id, the texts it wrote, its media. Not the user's id, email, name
    // (the user's own name is the profile's too) or workspace, which stay; nor the export, the user's.
    const needles = [subject.profile.id, ...account.texts.filter((t) => t !== subject.name), ...account.mediaIds];
    const traces = () =>
      scanTable(env.DYNAMODB_ENDPOINT, env.TABLE_NAME).then((items) =>
        items.filter((item) => needles.some((n) => itemText(item).includes(n)) && !allowedAfterProfile(item, account)),
      );
    const left = await until('traces in the table', traces, (t) => t.length === 0);
    expect(left).toEqual([]);
    // The search scan looks for the profile's needles alone: the user's stay (its id stands in for them).
    const id = subject.profile.id;
    const profileOnly = { ...subject, userId: id, email: id, workspaceId: id, name: id };
    expect(searchTraces(dataDir, { ...account, subject: profileOnly, texts: needles })).toEqual([]);
    expect(mediaTraces(dataDir, account)).toEqual([]);

    // The user, its session, its workspace and its other profile are intact.
    expect((await c.send('GET', '/v1/me', { token: subject.session })).status).toBe(200);
    expect(
      (await c.send('POST', '/v1/sessions', { body: { email: subject.email, password: subject.password } })).status,
    ).toBe(201);
    const other = await c.send('GET', `/v1/profiles/${kept.body.data.id}`, { token: subject.session });
    expect(other.status).toBe(200);
    expect(other.body.data.username).toBe(keptName);
    expect(
      (await c.send('GET', `/v1/workspaces/${subject.workspaceId}/api-keys`, { token: subject.session })).status,
    ).toBe(200);
    expect((await c.send('GET', `/v1/profiles/${subject.profile.id}`)).status).toBe(404);
  }, 240_000);
});

/**
 * What may still name the deleted profile: what the account's erasure allows (its tombstone and
 * username claim, the other's messages to it and its side of their conversation, the
 * `profile.deleted` announcements), and its workspace's audit entries naming it by id alone, as the
 * acting profile or the target (the workspace stays, and its log of its own keys' acts with it).
 */
function allowedAfterProfile(item: Record<string, unknown>, account: BusyAccount): boolean {
  if (item.entity === 'tombstone' || item.entity === 'username') return true;
  if (item.entity === 'event' && item.type === 'profile.deleted') return true;
  const id = account.subject.profile.id;
  const byIdAlone = (without: Record<string, unknown>) => !itemText(without).includes(id);
  if (item.entity === 'conversation' && item.profile_id !== id) return byIdAlone({ ...item, other_profile_id: null });
  if (item.entity === 'audit_entry') {
    const target = (item.target as { id?: string } | undefined)?.id === id ? null : item.target;
    const acting = item.acting_profile_id === id ? null : item.acting_profile_id;
    return byIdAlone({ ...item, target, acting_profile_id: acting });
  }
  return item.entity === 'message' && item.sender_profile_id === account.other.profile.id;
}
