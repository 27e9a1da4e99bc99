/**
 * FeedQueue port: carries the home feed's work from its stream consumer to the inbox writer. A
 * post's fan-out travels as messages of up to FAN_OUT_READERS_PER_MESSAGE readers each, so the
 * writers take one post's followers side by side; an author who turned out too followed to fan
 * out travels as a walk over its followers, one page per message.
 */
import * as z from 'zod/mini';

export const FeedMessage = z.union([
  /** Put the post's entry (naming no author, see FeedEntry) into these readers' inboxes. */
  z.object({
    kind: z.literal('post'),
    post_id: z.string(),
    published_at: z.string(),
    reader_ids: z.array(z.string()),
  }),
  /** Add the author to its followers' read-time authors, from `after` (a page of followers per message). */
  z.object({
    kind: z.literal('read_time_author'),
    author_id: z.string(),
    after: z.optional(z.string()),
  }),
]);
export type FeedMessage = z.infer<typeof FeedMessage>;

/** The body on the wire (SQS). */
export const feedMessageBody = (message: FeedMessage): string => JSON.stringify(message);

export interface FeedQueue {
  /** Resolves once every message is on the queue (or, in process, handled); rejects when one could not be. */
  send(messages: readonly FeedMessage[]): Promise<void>;
}
