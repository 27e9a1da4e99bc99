/**
 * Agent cards (API.md "Accountable agents", Agent cards): the declaration on PATCH, the signed A2A
 * card, its JWS verified with jose against the JWKS, its version moving exactly when the card
 * does, and 404 for everything that is not an agent.
 */
import { randomUUID } from 'node:crypto';
import canonicalize from 'canonicalize';
import { createRemoteJWKSet, flattenedVerify, type JSONWebKeySet } from 'jose';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { call, createApiKey, createProfile, expectError, signUp, unique } from '../support/api.js';
import { moderatorCommand, report, resolve } from '../support/moderation.js';
import { actor, ok, type Actor } from '../support/social.js';

interface Card {
  version: string;
  signatures: { protected: string; signature: string }[];
  [field: string]: unknown;
}

type Side = { key: string; profile: { id: string; [field: string]: unknown } };

async function agentActor(): Promise<Side> {
  const user = await signUp();
  const profile = await createProfile(user.token, { type: 'agent', username: unique('bot'), call_name: 'Botty' });
  const { key } = await createApiKey(user.token, user.workspace.id, ['all:all'], [profile.id]);
  return { key, profile };
}

const as = (a: Side | Actor) => ({ token: a.key, profileId: a.profile.id });
const edit = (a: Side | Actor, body: Record<string, unknown>) =>
  call('PATCH', `/v1/profiles/${a.profile.id}`, { ...as(a), body });
const cardOf = async (a: Side): Promise<Card> => {
  const response = await call('GET', `/v1/profiles/${a.profile.id}/agent-card`);
  expect(response.status).toBe(200);
  return response.body as unknown as Card;
};
const jwks = async () => (await call('GET', '/.well-known/jwks.json')).body as unknown as JSONWebKeySet;

/** Verifies the card's detached JWS over the RFC 8785 JSON of the card without signatures; returns its header. */
async function verifyCard(card: Card) {
  const { signatures, ...unsigned } = card;
  expect(signatures).toHaveLength(1);
  // Detached: the verifier puts back the payload, base64url of the canonical JSON.
  const payload = Buffer.from(canonicalize(unsigned)!).toString('base64url');
  // As docs/agents.md shows a verifier doing it: the JWKS fetched by URL.
  const keys = createRemoteJWKSet(new URL(`${inject('baseUrl')}/.well-known/jwks.json`));
  const result = await flattenedVerify({ ...signatures[0]!, payload }, keys);
  return result.protectedHeader;
}

const skill = {
  id: 'summarize-thread',
  name: 'Summarize a thread',
  description: 'Reads a thread and writes a summary.',
  tags: ['summaries', 'threads'],
};

describe('agent cards', () => {
  let operator: Actor;
  beforeAll(async () => {
    operator = await actor();
  });

  it('an agent declares skills; its card shows them, signed, verifiable against the JWKS', async () => {
    const agent = await agentActor();
    const edited = ok(
      await edit(agent, { agent: { skills: [skill], homepage_url: 'https://bots.example.com/botty' } }),
    );
    expect(edited.agent).toEqual({ skills: [skill], homepage_url: 'https://bots.example.com/botty' });
    expect(ok(await call('GET', `/v1/profiles/${agent.profile.id}`)).agent).toEqual(edited.agent);

    const card = await cardOf(agent);
    const base = inject('baseUrl');
    expect(card).toEqual({
      name: agent.profile.name,
      description: 'Botty',
      url: `${base}/v1/profiles/${agent.profile.id}`,
      version: expect.stringMatching(/^[0-9a-f]{16}$/),
      documentationUrl: 'https://bots.example.com/botty',
      skills: [skill],
      supportedInterfaces: [{ url: `${base}/mcp`, protocolBinding: 'MCP' }],
      signatures: [{ protected: expect.any(String), signature: expect.any(String) }],
    });
    const keys = await jwks();
    expect(keys.keys).toEqual([
      {
        kty: 'EC',
        crv: 'P-256',
        x: expect.any(String),
        y: expect.any(String),
        kid: expect.any(String),
        alg: 'ES256',
        use: 'sig',
      },
    ]);
    expect(await verifyCard(card)).toEqual({ alg: 'ES256', kid: keys.keys[0]!.kid });

    // A card altered after signing does not verify.
    await expect(verifyCard({ ...card, name: 'Someone else' })).rejects.toThrow(/signature verification failed/);
  });

  it('the version changes when skills, bio or the operator change, and not otherwise', async () => {
    const agent = await agentActor();
    const first = await cardOf(agent);
    expect(first).not.toHaveProperty('provider');
    expect(first).not.toHaveProperty('documentationUrl');
    expect(first.skills).toEqual([]);
    // Read again, nothing changed: the same version and the same stored signature.
    expect(await cardOf(agent)).toEqual(first);
    // An edit that changes nothing on the card (location is not on it) keeps the version.
    ok(await edit(agent, { location: { city_name: 'Lyon' } }));
    expect(await cardOf(agent)).toEqual(first);

    ok(await edit(agent, { agent: { skills: [skill] } }));
    const withSkill = await cardOf(agent);
    expect(withSkill.version).not.toBe(first.version);
    expect(withSkill.skills).toEqual([skill]);
    await verifyCard(withSkill);

    // An edit without `agent` keeps the declaration, and answers it.
    expect(ok(await edit(agent, { bio: 'I summarize threads.' })).agent).toEqual({
      skills: [skill],
      homepage_url: null,
    });
    const withBio = await cardOf(agent);
    expect(withBio.description).toBe('I summarize threads.');
    expect(withBio.version).not.toBe(withSkill.version);
    await verifyCard(withBio);

    // A pending link is not on the card; an accepted one is, as the provider.
    const { link } = ok(
      await call('POST', `/v1/profiles/${agent.profile.id}/operator`, {
        ...as(agent),
        body: { operator_profile_id: operator.profile.id },
      }),
      201,
    );
    expect((await cardOf(agent)).version).toBe(withBio.version);
    ok(await call('POST', `/v1/operator-links/${link.id}/accept`, as(operator)));
    const operated = await cardOf(agent);
    expect(operated.provider).toEqual({
      organization: operator.profile.name,
      url: `${inject('baseUrl')}/v1/profiles/${operator.profile.id}`,
    });
    expect(operated.version).not.toBe(withBio.version);
    await verifyCard(operated);

    // The operator renames itself: the agent's card shows the new name, as a new version.
    ok(await edit(operator, { name: 'Renamed Operator' }));
    const renamed = await cardOf(agent);
    expect(renamed.provider).toMatchObject({ organization: 'Renamed Operator' });
    expect(renamed.version).not.toBe(operated.version);
    await verifyCard(renamed);

    // Ending the link takes the provider off: the card is the one before it, signed again.
    ok(await call('DELETE', `/v1/operator-links/${link.id}`, as(agent)));
    const ended = await cardOf(agent);
    expect(ended).not.toHaveProperty('provider');
    expect(ended.version).toBe(withBio.version);
    await verifyCard(ended);
  });

  it('404 for humans, companies, unknown ids; non-agents show agent: null', async () => {
    const human = await actor();
    expectError(await call('GET', `/v1/profiles/${human.profile.id}/agent-card`), 404, 'not_found');
    expectError(await call('GET', `/v1/profiles/${randomUUID()}/agent-card`), 404, 'not_found');
    const user = await signUp();
    const company = await createProfile(user.token, { type: 'company', username: unique('co') });
    expectError(await call('GET', `/v1/profiles/${company.id}/agent-card`), 404, 'not_found');
    expect(ok(await call('GET', `/v1/profiles/${human.profile.id}`)).agent).toBeNull();
    expectError(await call('GET', '/v1/profiles/not-a-uuid/agent-card'), 400, 'invalid_request');
  });

  it('PATCH refusals change nothing: a non-agent, bad skills, a bad homepage', async () => {
    const human = await actor();
    const before = ok(await call('GET', `/v1/profiles/${human.profile.id}`));
    const refused = await edit(human, { name: 'Renamed', agent: { skills: [skill] } });
    expectError(refused, 400, 'invalid_request');
    expect(refused.body.agent.hint).toMatch(/agent/);
    expect(ok(await call('GET', `/v1/profiles/${human.profile.id}`))).toEqual(before);

    const agent = await agentActor();
    ok(await edit(agent, { agent: { skills: [skill] } }));
    const card = await cardOf(agent);
    const tooMany = Array.from({ length: 21 }, (_, i) => ({ ...skill, id: `s${i}` }));
    for (const bad of [
      { skills: tooMany },
      { skills: [skill, skill] },
      { skills: [{ ...skill, id: 'has space' }] },
      { skills: [{ ...skill, tags: Array.from({ length: 11 }, (_, i) => `t${i}`) }] },
      { skills: [{ ...skill, description: '' }] },
      { skills: [{ ...skill, extra: true }] },
      { skills: [skill], homepage_url: 'http://bots.example.com' },
      { skills: [skill], homepage_url: 'not a url' },
      { homepage_url: 'https://bots.example.com' },
    ]) {
      const response = await edit(agent, { name: 'Renamed', agent: bad });
      expectError(response, 400, 'invalid_request');
    }
    expect(await cardOf(agent)).toEqual(card);
  });

  it('404 across a block (acting as the blocker) and for a suspended agent; anonymous readers still get it', async () => {
    const [agent, blocker] = await Promise.all([agentActor(), actor()]);
    const path = `/v1/profiles/${agent.profile.id}/agent-card`;
    ok(
      await call('POST', '/v1/profile-blocks', { ...as(blocker), body: { blocked_profile_id: agent.profile.id } }),
      201,
    );
    expectError(await call('GET', path, as(blocker)), 404, 'not_found');
    expect((await call('GET', path)).status).toBe(200);

    const [reporter, moderator] = await Promise.all([actor(), actor()]);
    expect((await moderatorCommand('grant', moderator.user.email)).code).toBe(0);
    ok(await report(reporter, { subject_type: 'profile', subject_id: agent.profile.id, reason: 'spam' }), 201);
    ok(await resolve(moderator.session, 'profile', agent.profile.id, { action: 'suspend_profile' }));
    expectError(await call('GET', path), 404, 'not_found');
  });
});
