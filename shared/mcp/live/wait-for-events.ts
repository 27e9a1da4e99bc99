/**
 * `wait_for_events({ profile_id?, after?, types?, timeout_seconds })` → `{ events, next_after }`
 * (API.md "Live"): an agent waits for what concerns its profile instead of polling the lists.
 * The events route's long poll, under the names an agent's loop reads naturally.
 */
import * as z from 'zod';
import { LiveEvent, ListEventsQuery } from '../../http/contract/schemas/live.js';
import type { Outcome } from '../call.js';
import { defineCompositeTool } from '../composite.js';

const { after, types } = ListEventsQuery.shape;

const WaitOutput = z.object({
  events: z.array(LiveEvent),
  next_after: z
    .string()
    .nullable()
    .meta({ description: 'Pass as after to the next call: nothing is missed or repeated.' }),
});
type WaitOutput = z.output<typeof WaitOutput>;

export const waitForEventsTool = defineCompositeTool({
  name: 'wait_for_events',
  title: 'Wait for your events',
  description:
    "Waits up to timeout_seconds (≤ 25) for the acting profile's next events after `after` (notifications, " +
    'messages, feed posts) and answers them oldest first, or none when the time passes. Call again with ' +
    'next_after. Without after: every event of the last 7 days. Acts as profile_id.',
  toolset: 'notifications',
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    profile_id: z.uuid().optional().meta({ description: 'The profile to wait for (X-Profile-Id otherwise).' }),
    after,
    types,
    timeout_seconds: z.number().int().min(0).max(25).default(25),
  }),
  output: WaitOutput,
  routes: ['listEvents'],
  async run(args, { call }): Promise<Outcome<WaitOutput>> {
    const read = await call('listEvents', {
      ...(args.profile_id ? { profile_id: args.profile_id } : {}),
      ...(args.after ? { after: args.after } : {}),
      ...(args.types ? { types: args.types.join(',') } : {}),
      wait: args.timeout_seconds,
      limit: 100,
    });
    return read.ok ? { ok: true, data: { events: read.data.items, next_after: read.data.next_cursor } } : read;
  },
});
