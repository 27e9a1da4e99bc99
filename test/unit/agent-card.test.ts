/** The agent card built from its sources: its fields, its version (a hash of the rest), the text RFC 8785 can hold. */
import { describe, expect, it } from 'vitest';
import { agentCardOf, canonicalJson, signatureHolds, type AgentCardSource } from '../../shared/domain/agent-cards.js';

const source: AgentCardSource = {
  profile: { id: 'agent-1', name: 'Botty', call_name: 'Bot', bio: null },
  declaration: undefined,
  operator: undefined,
  baseUrl: 'https://api.example.com',
  mcpUrl: 'https://api.example.com/mcp',
};
const skill = { id: 's1', name: 'Skill', description: 'Does it', tags: ['a'] };

describe('agentCardOf', () => {
  it('names the profile, its call name without a bio, its API URL and the MCP endpoint; no provider or homepage unless there are', () => {
    expect(agentCardOf(source)).toEqual({
      name: 'Botty',
      description: 'Bot',
      url: 'https://api.example.com/v1/profiles/agent-1',
      version: expect.stringMatching(/^[0-9a-f]{16}$/),
      skills: [],
      supportedInterfaces: [{ url: 'https://api.example.com/mcp', protocolBinding: 'MCP' }],
    });
    const full = agentCardOf({
      ...source,
      profile: { ...source.profile, bio: 'I help.' },
      declaration: { skills: [skill], homepage_url: 'https://bots.example.com' },
      operator: { id: 'op-1', name: 'Acme' },
    });
    expect(full).toMatchObject({
      description: 'I help.',
      documentationUrl: 'https://bots.example.com',
      provider: { organization: 'Acme', url: 'https://api.example.com/v1/profiles/op-1' },
      skills: [skill],
    });
  });

  it('moves the version with every field on the card and only with them', () => {
    const base = agentCardOf(source).version;
    expect(agentCardOf({ ...source }).version).toBe(base);
    const changed = [
      { ...source, profile: { ...source.profile, name: 'Other' } },
      { ...source, profile: { ...source.profile, bio: 'A bio' } },
      { ...source, declaration: { skills: [skill], homepage_url: null } },
      { ...source, declaration: { skills: [], homepage_url: 'https://x.example.com' } },
      { ...source, operator: { id: 'op', name: 'Acme' } },
      { ...source, mcpUrl: 'https://other.example.com/mcp' },
    ].map((s) => agentCardOf(s).version);
    expect(new Set([base, ...changed]).size).toBe(changed.length + 1);
    // An empty declaration is the same card as none.
    expect(agentCardOf({ ...source, declaration: { skills: [], homepage_url: null } }).version).toBe(base);
  });

  it('shows a lone surrogate as U+FFFD, so the card always has a canonical form', () => {
    const card = agentCardOf({ ...source, profile: { ...source.profile, name: 'Bot \ud800', bio: '\udc00 and 😀' } });
    expect(card.name).toBe('Bot \ufffd');
    expect(card.description).toBe('\ufffd and 😀');
    expect(() => canonicalJson(card)).not.toThrow();
  });

  it('keeps a stored signature only for the same version and key', () => {
    const card = agentCardOf(source);
    const stored = {
      profile_id: 'agent-1',
      version: card.version,
      kid: 'k1',
      protected: 'p',
      signature: 's',
      signed_at: '',
    };
    expect(signatureHolds(stored, card, 'k1')).toBe(true);
    expect(signatureHolds(stored, card, 'k2')).toBe(false);
    expect(signatureHolds({ ...stored, version: 'older' }, card, 'k1')).toBe(false);
    expect(signatureHolds(undefined, card, 'k1')).toBe(false);
  });
});
