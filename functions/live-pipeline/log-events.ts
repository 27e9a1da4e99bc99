/**
 * Lambda: the table stream → the per-profile event logs (shared/live/from-stream.ts). The local
 * runtime runs the same handler from its stream poller, telling its waiting streams of each event.
 */
import { logEventsFromStream, logsEvents, type OnLogged } from '../../shared/live/from-stream.js';
import { streamBatchResponse } from '../../shared/pipeline/batch-failures.js';
import type { StreamHandler } from '../../shared/ports/shard-stream-event.js';

export function logEventsHandler(onLogged: OnLogged = () => undefined): StreamHandler {
  return async (event) => {
    if (!logsEvents(event.Records)) return streamBatchResponse(event, []);
    return streamBatchResponse(event, await logEventsFromStream(event.Records, onLogged));
  };
}

export const handler = logEventsHandler();
