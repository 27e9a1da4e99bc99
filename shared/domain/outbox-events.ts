import type { EventType, OutboxEvent } from './events.js';
import { newId } from './ids.js';

/** The profile an event is about: its id and workspace (the selection rule uses the workspace). */
export interface Affected {
  id: string;
  workspace_id: string;
}

/**
 * Builds the outbox event for `affected`, or nothing when the affected profile is the one that
 * caused the change: no event ever goes to its own actor.
 */
export function eventFor(
  type: EventType,
  affected: Affected,
  actorProfileId: string,
  createdAt: string,
  data: Record<string, unknown>,
): OutboxEvent | undefined {
  if (affected.id === actorProfileId) return undefined;
  return {
    id: newId(),
    type,
    profile_id: affected.id,
    workspace_id: affected.workspace_id,
    created_at: createdAt,
    data,
  };
}

export const defined = <T>(values: readonly (T | undefined)[]): T[] => values.filter((v): v is T => v !== undefined);
