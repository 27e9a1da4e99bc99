/**
 * The live publisher: the table stream, filtered to INSERTs of event log items (`EVENTS#<profile>`),
 * → each event published to its profile's AppSync Events channel, `/profiles/{profile_id}`, for
 * the WebSocket subscribers (API.md "Live"). A profile's events of a batch go in stream order, in
 * requests of five; profiles side by side. A failed profile is reported (the shard resumes at its
 * earliest record), so its events and those after them come again: a WebSocket client may see an
 * event twice and drops the repeat by id (docs/live.md). The event is published as every transport
 * answers it (`id`, `type`, `profile_id`, `created_at`, `data`), without the item's bookkeeping: a
 * `feed.post`, logged by reference, is presented from its post first, or left out as the reads
 * leave it out (shared/live/present.ts: one BatchGetItem and the profile's blocks and mutes).
 */
import * as z from 'zod/mini';
import { profileChannel } from '../../shared/domain/live-channels.js';
import { LIVE_EVENT_TYPES } from '../../shared/domain/live-events.js';
import { presentEvents } from '../../shared/live/present.js';
import { decodeImage } from '../../shared/pipeline/decode.js';
import { STREAM_STEP_RETRY, streamHandler } from '../../shared/pipeline/stream-consumer.js';
import type { EventPublisher } from '../../shared/ports/event-publisher.js';
import type { StreamHandler } from '../../shared/ports/shard-stream-event.js';
import { keys } from '../../shared/store/keys.js';
import { TABLE } from '../../shared/store/table.js';

/** Profiles of one batch published to at once. */
const PROFILES_AT_ONCE = 8;

/** An event as published: the log item's public fields (the schema drops the rest). */
const PublishedEvent = z.object({
  id: z.string(),
  type: z.enum(LIVE_EVENT_TYPES),
  profile_id: z.string(),
  created_at: z.string(),
  data: z.record(z.string(), z.unknown()),
});
type PublishedEvent = z.infer<typeof PublishedEvent>;

const EVENT_LOG_PREFIX = keys.eventLog('');

/** `publisher` may be given as a function, called at the first batch (loading the module needs no API). */
export function publishEventsHandler(publisher: EventPublisher | (() => EventPublisher)): StreamHandler {
  const publisherOf = typeof publisher === 'function' ? publisher : () => publisher;
  return streamHandler<PublishedEvent>(
    {
      records: 'event log record',
      failure: 'live event publish failed',
      select: (record) => {
        const partition = record.dynamodb?.Keys?.[TABLE.partitionKey]?.S;
        if (record.eventName !== 'INSERT' || !partition?.startsWith(EVENT_LOG_PREFIX)) return undefined;
        return decodeImage(PublishedEvent, record.dynamodb?.NewImage);
      },
      laneOf: (event) => event.profile_id,
      concurrency: PROFILES_AT_ONCE,
      retry: STREAM_STEP_RETRY,
      fold: async (events) => {
        const profileId = events[0]!.profile_id;
        const shown = await presentEvents(profileId, events);
        if (shown.length > 0) await publisherOf().publish(profileChannel(profileId), shown);
      },
      describe: (event) => ({ profile_id: event.profile_id, event_id: event.id }),
    },
    { reportBatchItemFailures: true },
  );
}
