/**
 * The Lambda side of EventWake: no writer can reach a waiting function, so a wait is a pause of
 * at most a second, after which the reader reads the log again (one consistent Query of the
 * log's newest end: half a read unit a second per waiting connection).
 */
import { setTimeout as pause } from 'node:timers/promises';
import type { EventWake } from '../event-wake.js';

const LOOK_AGAIN_MS = 1000;

export const pauseEventWake: EventWake = {
  wait: (_profileId, ms, signal) => pause(Math.min(ms, LOOK_AGAIN_MS), undefined, { signal }).catch(() => undefined),
};
