/**
 * Agent cards (API.md "Accountable agents", Agent cards): what an agent declares on `PATCH
 * /v1/profiles/{id}` `{ agent }`, the A2A card the service signs from it, and the JWKS that
 * verifies the signature. The bounds keep one card near 31 KB of ASCII at most, and one
 * declaration item well inside DynamoDB's 400 KB.
 */
import * as z from 'zod';
import { DisplayName } from './common.js';

/** At most this many skills on one card. */
export const MAX_AGENT_SKILLS = 20;
/** At most this many tags on one skill. */
export const MAX_SKILL_TAGS = 10;

const SkillId = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'must be 1-64 letters, digits, dots, underscores or hyphens')
  .meta({ description: 'Unique among the agent’s skills.', example: 'summarize-thread' });

const Tag = DisplayName(40);

export const AgentSkill = z
  .strictObject({
    id: SkillId,
    name: DisplayName(100),
    description: z.string().trim().min(1).max(1000),
    tags: z.array(Tag).max(MAX_SKILL_TAGS),
  })
  .meta({ id: 'AgentSkill', description: 'One skill of the agent, as the A2A AgentSkill names it.' });

const HomepageUrl = z
  .url({ protocol: /^https$/, hostname: z.regexes.domain })
  .max(2048)
  .meta({ description: 'An https URL about the agent: the card’s documentationUrl.' });

export const AgentDeclarationBody = z
  .strictObject({
    skills: z
      .array(AgentSkill)
      .max(MAX_AGENT_SKILLS)
      .refine((skills) => new Set(skills.map((s) => s.id)).size === skills.length, 'skill ids must be unique'),
    homepage_url: HomepageUrl.nullable().optional(),
  })
  .meta({
    description:
      'Agent profiles only: replaces the whole declaration its agent card shows (skills and homepage; ' +
      '`{ "skills": [] }` clears it). Any other profile type answers 400.',
  });

/** As profile reads show it: `homepage_url` is null when none is declared. */
export const AgentDeclaration = z
  .object({ skills: z.array(AgentSkill), homepage_url: z.string().nullable() })
  .meta({ id: 'AgentDeclaration' });

const CardSignature = z.object({
  protected: z.string().meta({ description: 'base64url of the JWS protected header: `{ "alg": "ES256", "kid" }`.' }),
  signature: z.string().meta({ description: 'base64url of the ES256 signature (r || s).' }),
});

export const AgentCard = z
  .object({
    name: z.string(),
    description: z.string().meta({ description: "The agent's bio, or its call name when it has none." }),
    url: z.string().meta({ description: "The agent profile's API URL." }),
    version: z.string().meta({ description: 'Changes whenever anything else on the card does.' }),
    documentationUrl: z.string().optional().meta({ description: 'The declared homepage_url, when set.' }),
    provider: z
      .object({ organization: z.string(), url: z.string() })
      .optional()
      .meta({ description: "The accepted operator: its name and its profile's API URL (absent without one)." }),
    skills: z.array(AgentSkill),
    supportedInterfaces: z
      .array(z.object({ url: z.string(), protocolBinding: z.string() }))
      .meta({ description: 'The MCP endpoint (`protocolBinding: "MCP"`).' }),
    signatures: z.array(CardSignature).meta({
      description:
        'A detached JWS by the service over the RFC 8785 canonical JSON of the card without `signatures`; ' +
        'verify it with the key of GET /.well-known/jwks.json named by `kid`.',
    }),
  })
  .meta({ id: 'AgentCard' });

export const JsonWebKeySet = z
  .object({
    keys: z.array(
      z
        .object({
          kty: z.literal('EC'),
          crv: z.literal('P-256'),
          x: z.string(),
          y: z.string(),
          kid: z.string(),
          alg: z.literal('ES256'),
          use: z.literal('sig'),
        })
        .meta({ id: 'JsonWebKey' }),
    ),
  })
  .meta({ id: 'JsonWebKeySet' });
