import type * as z from 'zod';
import { publicEvent, type LiveEvent as LoggedEvent } from '../../domain/live-events.js';
import type { LiveEvent } from '../contract/schemas/live.js';

/**
 * An event of the log as answered. Its `data` was made by the presenters of what it is about
 * (notification, message) when it was logged, or, for a `feed.post`, from its post when it was read
 * (shared/live/present.ts), so it already has the shape its type names.
 */
export const presentEvent = (event: LoggedEvent) => publicEvent(event) as z.input<typeof LiveEvent>;
