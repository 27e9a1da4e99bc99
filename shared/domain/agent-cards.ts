/**
 * Agent cards (API.md "Accountable agents", Agent cards): what an agent profile declares of
 * itself (its skills, a homepage), and the A2A card the service builds from the profile, that
 * declaration and the accepted operator. Pure: the card, its version and the bytes its JWS signs.
 */
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { ProfileRecord } from './entities.js';

/** One skill as the agent declares it (the A2A AgentSkill's required fields). */
export interface AgentSkill {
  id: string;
  name: string;
  description: string;
  tags: string[];
}

/** What an agent declares for its card; `PATCH /v1/profiles/{id}` `{ agent }` replaces it whole. */
export interface AgentDeclaration {
  skills: AgentSkill[];
  homepage_url: string | null;
}

/** The declaration's own item, beside the profile's (so skills never weigh on every profile read). */
export interface AgentDeclarationRecord extends AgentDeclaration {
  profile_id: string;
  updated_at: string;
}

/** An agent that never declared anything shows this. */
export const NO_DECLARATION: AgentDeclaration = { skills: [], homepage_url: null };

/** The JWS the service made over one version of a card, kept until the card changes. */
export interface AgentCardSignatureRecord {
  profile_id: string;
  /** The card's version it signs: a newer version is signed again. */
  version: string;
  /** The key that signed: a card signed by a key no longer served is signed again. */
  kid: string;
  protected: string;
  signature: string;
  signed_at: string;
}

export interface AgentCardSignature {
  protected: string;
  signature: string;
}

export interface AgentInterface {
  url: string;
  protocolBinding: string;
}

/** The A2A card without its signatures: the part the JWS is over. */
export interface UnsignedAgentCard {
  name: string;
  description: string;
  url: string;
  version: string;
  documentationUrl?: string;
  provider?: { organization: string; url: string };
  skills: AgentSkill[];
  supportedInterfaces: AgentInterface[];
}

export type AgentCard = UnsignedAgentCard & { signatures: AgentCardSignature[] };

/** What a card is built from. */
export interface AgentCardSource {
  profile: Pick<ProfileRecord, 'id' | 'name' | 'call_name' | 'bio'>;
  declaration: AgentDeclaration | undefined;
  /** The accepted operator's profile, or undefined. */
  operator: Pick<ProfileRecord, 'id' | 'name'> | undefined;
  /** The API's public base URL (no trailing slash). */
  baseUrl: string;
  /** The MCP endpoint's URL. */
  mcpUrl: string;
}

/**
 * RFC 8785 rejects lone surrogates, which JSON input can carry into a stored name or bio: the card
 * shows them replaced (U+FFFD), so every stored text has a canonical form.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const text = (value: string) => value.replace(LONE_SURROGATE, '\uFFFD');

const profileUrl = (baseUrl: string, id: string) => `${baseUrl}/v1/profiles/${id}`;

/** RFC 8785 canonical JSON (the card's strings are well-formed and it has no non-finite numbers). */
export const canonicalJson = (value: unknown): string => canonicalize(value)!;

/** The card's version: the first 16 hex digits of the SHA-256 of its canonical JSON without `version`. */
export const cardVersion = (card: Omit<UnsignedAgentCard, 'version'>): string =>
  createHash('sha256').update(canonicalJson(card)).digest('hex').slice(0, 16);

/** The card of an agent profile: its version changes whenever anything else on it does. */
export function agentCardOf(source: AgentCardSource): UnsignedAgentCard {
  const { profile, declaration = NO_DECLARATION, operator, baseUrl } = source;
  const content: Omit<UnsignedAgentCard, 'version'> = {
    name: text(profile.name),
    description: text(profile.bio ?? profile.call_name),
    url: profileUrl(baseUrl, profile.id),
    ...(declaration.homepage_url ? { documentationUrl: declaration.homepage_url } : {}),
    ...(operator ? { provider: { organization: text(operator.name), url: profileUrl(baseUrl, operator.id) } } : {}),
    skills: declaration.skills.map((skill) => ({
      id: text(skill.id),
      name: text(skill.name),
      description: text(skill.description),
      tags: skill.tags.map(text),
    })),
    supportedInterfaces: [{ url: source.mcpUrl, protocolBinding: 'MCP' }],
  };
  return { ...content, version: cardVersion(content) };
}

/** The JWS protected header of a card signature (RFC 7515: ES256 over P-256, named by `kid`). */
export const protectedHeaderOf = (kid: string): string =>
  Buffer.from(JSON.stringify({ alg: 'ES256', kid })).toString('base64url');

/** The JWS signing input of a detached signature over the card's canonical JSON. */
export const signingInputOf = (protectedHeader: string, card: UnsignedAgentCard): Buffer =>
  Buffer.from(`${protectedHeader}.${Buffer.from(canonicalJson(card)).toString('base64url')}`);

/** The stored signature still holds for this card and key. */
export const signatureHolds = (
  stored: AgentCardSignatureRecord | undefined,
  card: UnsignedAgentCard,
  kid: string,
): stored is AgentCardSignatureRecord => stored?.version === card.version && stored.kid === kid;
