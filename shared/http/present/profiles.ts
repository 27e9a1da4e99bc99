import { NO_DECLARATION, type AgentDeclaration } from '../../domain/agent-cards.js';
import type { ProfileRecord } from '../../domain/entities.js';
import type { FollowCounts } from '../../store/follows.js';
import { Profile, ProfileWithAgent, ProfileWithCounts } from '../contract/schemas/profiles.js';
import { declared } from './declared.js';

export const presentProfile = (profile: ProfileRecord) => declared(Profile, profile);

/** An agent's accepted operator: its profile and when it accepted. */
export interface OperatorOf {
  profile: ProfileRecord;
  since: string;
}

/** `agent` of a profile's own read: an agent's declaration (no skills until it declares some), null for others. */
function agentOf(profile: ProfileRecord, declaration = NO_DECLARATION): AgentDeclaration | null {
  return profile.type === 'agent' ? { skills: declaration.skills, homepage_url: declaration.homepage_url } : null;
}

export const presentProfileWithAgent = (profile: ProfileRecord, declaration: AgentDeclaration | undefined) =>
  declared(ProfileWithAgent, { ...profile, agent: agentOf(profile, declaration) });

export const presentProfileWithCounts = (
  profile: ProfileRecord,
  counts: FollowCounts,
  operator: OperatorOf | null,
  declaration: AgentDeclaration | undefined,
) =>
  declared(ProfileWithCounts, {
    ...profile,
    ...counts,
    agent: agentOf(profile, declaration),
    operator: operator ? { profile: presentProfile(operator.profile), since: operator.since } : null,
  });
