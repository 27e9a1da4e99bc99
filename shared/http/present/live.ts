import type * as z from 'zod';
import { publicEvent, type LiveEvent as LoggedEvent } from '../../domain/live-events.js';
import type { LiveEvent } from '../contract/schemas/live.js';

/**
 * An event of the log as answered. Its `data` was made by the presenters of what it is about
 * (notification, message, post) when it was logged, so it already has the shape its type names.
 */
export const presentEvent = (event: LoggedEvent) => publicEvent(event) as z.input<typeof LiveEvent>;
