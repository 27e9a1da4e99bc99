import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, createApiKey, createProfile, expectError, signUp, unique } from '../support/api.js';
import { actor, ok, type Actor } from '../support/social.js';

type Side = { key: string; profile: { id: string } };

/** A user with an agent profile and a key for it. */
async function agentActor(): Promise<Side> {
  const user = await signUp();
  const profile = await createProfile(user.token, { type: 'agent', username: unique('bot') });
  const { key } = await createApiKey(user.token, user.workspace.id, ['all:all'], [profile.id]);
  return { key, profile };
}

const as = (a: Side) => ({ token: a.key, profileId: a.profile.id });
const request = (agent: Side, operatorId: string, by: Side = agent) =>
  call('POST', `/v1/profiles/${agent.profile.id}/operator`, { ...as(by), body: { operator_profile_id: operatorId } });
const answer = (by: Side, linkId: string, action: 'accept' | 'decline') =>
  call('POST', `/v1/operator-links/${linkId}/${action}`, as(by));
const end = (by: Side, linkId: string) => call('DELETE', `/v1/operator-links/${linkId}`, as(by));
const operatorOf = async (a: Side) => ok(await call('GET', `/v1/profiles/${a.profile.id}`)).operator;
const agentsOf = async (a: Side, query = '') => ok(await call('GET', `/v1/profiles/${a.profile.id}/agents${query}`));
const agentIds = async (a: Side) => (await agentsOf(a)).items.map((p: { id: string }) => p.id);

describe('operator links', () => {
  let human: Actor;
  let company: Side;
  let stranger: Actor;
  beforeAll(async () => {
    [human, stranger] = await Promise.all([actor(), actor()]);
    const user = await signUp();
    const profile = await createProfile(user.token, { type: 'company', username: unique('co') });
    company = { key: (await createApiKey(user.token, user.workspace.id, ['all:all'], [profile.id])).key, profile };
  });

  it('request, accept, show on the profile and in the agents list, end, and name another', async () => {
    const agent = await agentActor();
    const { link } = ok(await request(agent, human.profile.id), 201);
    expect(link).toEqual({
      id: expect.any(String),
      agent_profile_id: agent.profile.id,
      operator_profile_id: human.profile.id,
      status: 'pending',
      created_at: expect.stringMatching(/Z$/),
    });
    // Pending is not an operator yet.
    expect(await operatorOf(agent)).toBeNull();
    expect(await agentIds(human)).toEqual([]);

    expect(ok(await answer(human, link.id, 'accept')).link).toMatchObject({ id: link.id, status: 'accepted' });
    const operator = await operatorOf(agent);
    expect(operator.profile.id).toBe(human.profile.id);
    expect(operator.profile).not.toHaveProperty('operator');
    expect(Date.parse(operator.since)).toBeGreaterThanOrEqual(Date.parse(link.created_at));
    expect(await agentIds(human)).toEqual([agent.profile.id]);
    // A human has no operator.
    expect(await operatorOf(human)).toBeNull();

    expect(ok(await end(agent, link.id)).link).toMatchObject({ id: link.id, status: 'ended' });
    expect(await operatorOf(agent)).toBeNull();
    expect(await agentIds(human)).toEqual([]);

    // The slot is free again: a company may operate it, and it may end the link from its side.
    const second = ok(await request(agent, company.profile.id), 201).link;
    ok(await answer(company, second.id, 'accept'));
    expect((await operatorOf(agent)).profile.id).toBe(company.profile.id);
    expect(ok(await end(company, second.id)).link.status).toBe('ended');
    expect(await operatorOf(agent)).toBeNull();
  });

  it('declining frees the agent; a declined or ended link cannot move again (409), nothing changes', async () => {
    const agent = await agentActor();
    const first = ok(await request(agent, human.profile.id), 201).link;
    expect(ok(await answer(human, first.id, 'decline')).link.status).toBe('declined');
    expectError(await answer(human, first.id, 'accept'), 409, 'invalid_state');
    expectError(await end(agent, first.id), 409, 'invalid_state');
    expect(await operatorOf(agent)).toBeNull();
    expect(await agentIds(human)).toEqual([]);

    const second = ok(await request(agent, human.profile.id), 201).link;
    ok(await answer(human, second.id, 'accept'));
    const before = await operatorOf(agent);
    expectError(await answer(human, second.id, 'accept'), 409, 'invalid_state');
    expectError(await answer(human, second.id, 'decline'), 409, 'invalid_state');
    expect(await operatorOf(agent)).toEqual(before);
    ok(await end(human, second.id));
    expectError(await end(human, second.id), 409, 'invalid_state');
    expectError(await answer(human, second.id, 'accept'), 409, 'invalid_state');
    expect(await operatorOf(agent)).toBeNull();
    expect(await agentIds(human)).toEqual([]);
  });

  it('one operator at a time: a second request while pending or accepted is 409 and the first stands', async () => {
    const agent = await agentActor();
    const first = ok(await request(agent, human.profile.id), 201).link;
    expectError(await request(agent, company.profile.id), 409, 'invalid_state');
    expectError(await request(agent, human.profile.id), 409, 'invalid_state');
    ok(await answer(human, first.id, 'accept'));
    expectError(await request(agent, company.profile.id), 409, 'invalid_state');
    expect((await operatorOf(agent)).profile.id).toBe(human.profile.id);
    expect(await agentIds(company)).toEqual([]);
    ok(await end(agent, first.id));
  });

  it('only agents have one, only humans and companies operate: 400, and nothing was written', async () => {
    const [agent, otherAgent] = await Promise.all([agentActor(), agentActor()]);
    // A human asking for an operator.
    expectError(await request(human, company.profile.id), 400, 'invalid_request');
    expect(await agentIds(company)).toEqual([]);
    expect(await operatorOf(human)).toBeNull();
    // An agent as operator, and itself.
    expectError(await request(agent, otherAgent.profile.id), 400, 'invalid_request');
    expectError(await request(agent, agent.profile.id), 400, 'invalid_request');
    // Wrong types and unknown profiles.
    expectError(await request(agent, 'not-a-uuid'), 400, 'invalid_request');
    expectError(
      await call('POST', `/v1/profiles/${agent.profile.id}/operator`, { ...as(agent), body: {} }),
      400,
      'invalid_request',
    );
    expectError(await answer(human, 'not-a-uuid', 'accept'), 400, 'invalid_request');
    expectError(await request(agent, randomUUID()), 404, 'not_found');
    // Acting as a profile the key does not hold.
    expectError(await request(agent, human.profile.id, stranger), 403, 'profile_not_permitted');
    // None of these took the agent's slot.
    const link = ok(await request(agent, human.profile.id), 201).link;
    ok(await end(agent, link.id));
  });

  it('anyone but its two sides gets 404, and the link is unchanged', async () => {
    const agent = await agentActor();
    const link = ok(await request(agent, human.profile.id), 201).link;
    expectError(await answer(stranger, link.id, 'accept'), 404, 'not_found');
    expectError(await answer(stranger, link.id, 'decline'), 404, 'not_found');
    expectError(await end(stranger, link.id), 404, 'not_found');
    // The agent is a side, but not the one that answers.
    expectError(await answer(agent, link.id, 'accept'), 404, 'not_found');
    expectError(await answer(human, randomUUID(), 'accept'), 404, 'not_found');
    expect(await operatorOf(agent)).toBeNull();
    // Still pending: its operator can accept it.
    expect(ok(await answer(human, link.id, 'accept')).link.status).toBe('accepted');
    ok(await end(agent, link.id));
  });

  it('is exact under concurrency: two requests make one link; accept racing decline or end, one wins', async () => {
    const agent = await agentActor();
    const both = await Promise.all([request(agent, human.profile.id), request(agent, company.profile.id)]);
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
    const link = both.find((r) => r.status === 201)!.body.data.link;
    const operator = link.operator_profile_id === human.profile.id ? human : company;

    const raced = await Promise.all([answer(operator, link.id, 'accept'), answer(operator, link.id, 'decline')]);
    expect(raced.map((r) => r.status).sort()).toEqual([200, 409]);
    const accepted = raced[0].status === 200;
    expect((await operatorOf(agent))?.profile.id ?? null).toBe(accepted ? operator.profile.id : null);
    expect(await agentIds(operator)).toEqual(accepted ? [agent.profile.id] : []);
    if (accepted) ok(await end(agent, link.id));

    const next = ok(await request(agent, human.profile.id), 201).link;
    const racedEnd = await Promise.all([answer(human, next.id, 'accept'), end(agent, next.id)]);
    const [acceptStatus, endStatus] = racedEnd.map((r) => r.status);
    // Accept then end (both 200), end first (accept 409), or the end read the link still pending and the
    // accept moved it first (end 409: retried, it ends it): the profile and the list always agree with the link.
    expect([
      [200, 200],
      [409, 200],
      [200, 409],
    ]).toContainEqual([acceptStatus, endStatus]);
    const standing = endStatus === 409;
    expect((await operatorOf(agent))?.profile.id ?? null).toBe(standing ? human.profile.id : null);
    expect(await agentIds(human)).toEqual(standing ? [agent.profile.id] : []);
    if (standing) ok(await end(agent, next.id));
    expect(await operatorOf(agent)).toBeNull();
  });

  it('the agents list pages, and needs profiles:write to write', async () => {
    const [a, b] = await Promise.all([agentActor(), agentActor()]);
    for (const agent of [a, b]) {
      const link = ok(await request(agent, company.profile.id), 201).link;
      ok(await answer(company, link.id, 'accept'));
    }
    const first = await agentsOf(company, '?limit=1');
    expect(first.items.map((p: { id: string }) => p.id)).toEqual([b.profile.id]);
    const second = await agentsOf(company, `?limit=1&cursor=${first.next_cursor}`);
    expect(second.items.map((p: { id: string }) => p.id)).toEqual([a.profile.id]);
    expectError(await call('GET', `/v1/profiles/${randomUUID()}/agents`), 404, 'not_found');

    const user = await signUp();
    const agent = await createProfile(user.token, { type: 'agent', username: unique('bot') });
    const readOnly = (await createApiKey(user.token, user.workspace.id, ['profiles:read'], [agent.id])).key;
    expectError(await request({ key: readOnly, profile: agent }, human.profile.id), 403, 'insufficient_scope');
  });
});
