/**
 * The home feed's Lambdas around shared/feed, given their queue: the Lambda entry points wire SQS,
 * the local runtime (infra/local) its in-process queue, so both run the same code on the same
 * event shapes.
 */
import type {
  DynamoDBBatchResponse,
  DynamoDBRecord,
  DynamoDBStreamEvent,
  SQSBatchResponse,
  SQSEvent,
} from 'aws-lambda';
import * as z from 'zod/mini';
import { config } from '../../shared/config.js';
import { publishesIntoFeeds } from '../../shared/domain/feed.js';
import { fanOutPost, followIntoFeed, type FeedFanOutSettings } from '../../shared/feed/fan-out.js';
import { writeFeedMessage } from '../../shared/feed/write-inboxes.js';
import { logger } from '../../shared/logger.js';
import { readFeedMessage, type FeedQueue } from '../../shared/ports/feed-queue.js';
import { entityTags } from '../../shared/store/keys.js';
import { forEachLimit } from '../../shared/webhooks/bounded.js';
import { readImage } from '../../shared/webhooks/stream-image.js';

export type FeedStreamHandler = (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse>;
export type FeedQueueHandler = (event: SQSEvent) => Promise<SQSBatchResponse>;

/** What the fan-out reads of a post's image (the rest of the post is not needed to decide). */
const PostImage = z.object({
  id: z.string(),
  profile_id: z.string(),
  kind: z.enum(['post', 'reply']),
  status: z.enum(['draft', 'published', 'removed']),
  published_at: z.nullable(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
});

const FollowImage = z.object({
  follower_profile_id: z.string(),
  followed_profile_id: z.string(),
  created_at: z.string(),
});

/** Records of one stream batch worked on at once (different posts and follows do not depend on each other). */
const RECORDS_AT_ONCE = 8;
/** In-process tries of one record before it is reported failed. */
const TRIES = 3;

export const feedFanOutSettingsFromConfig = (): FeedFanOutSettings => ({ maxFollowers: config.feedFanOutMaxFollowers });

async function withRetries(work: () => Promise<unknown>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await work();
      return;
    } catch (error) {
      if (attempt >= TRIES) throw error;
      await new Promise((r) => setTimeout(r, 100 * 4 ** attempt * (0.5 + Math.random())));
    }
  }
}

/** The feed work one stream record asks for, if any; a record of ours whose image is not what it should be is an error. */
function workOf(
  record: DynamoDBRecord,
  queue: FeedQueue,
  settings: FeedFanOutSettings,
): (() => Promise<unknown>) | string | undefined {
  const image = record.dynamodb?.NewImage;
  const entity = image?.entity?.S;
  if (entity === entityTags.post && (record.eventName === 'INSERT' || record.eventName === 'MODIFY')) {
    const read = readImage(PostImage, image!);
    if (!read.ok) return read.reason;
    const post = read.record;
    if (!publishesIntoFeeds(record.eventName, post)) return undefined;
    const entry = { post_id: post.id, author_id: post.profile_id, published_at: post.published_at! };
    return () => fanOutPost(entry, queue, settings);
  }
  if (entity === entityTags.follow && record.eventName === 'INSERT') {
    const read = readImage(FollowImage, image!);
    if (!read.ok) return read.reason;
    const follow = read.record;
    return () => followIntoFeed(follow);
  }
  return undefined;
}

/**
 * The table stream → the feed: published posts fanned out (through the queue), new follows
 * backfilled. Records are worked on side by side; one that still fails after in-process tries is
 * reported (ReportBatchItemFailures, the earliest): the stream resumes there, and what was already
 * done after it is done again harmlessly (a fanned-out post finds its own entry and stops).
 */
export function feedStreamHandler(
  queue: FeedQueue,
  settings: FeedFanOutSettings = feedFanOutSettingsFromConfig(),
): FeedStreamHandler {
  return async (event) => {
    const failed: string[] = [];
    const work: { sequenceNumber: string; run: () => Promise<unknown> }[] = [];
    for (const record of event.Records) {
      const sequenceNumber = record.dynamodb?.SequenceNumber ?? '';
      const found = workOf(record, queue, settings);
      if (typeof found === 'string') {
        logger.error('malformed feed record on the stream', { sequence_number: sequenceNumber, reason: found });
        failed.push(sequenceNumber);
      } else if (found) work.push({ sequenceNumber, run: found });
    }
    await forEachLimit(work, RECORDS_AT_ONCE, async ({ sequenceNumber, run }) => {
      try {
        await withRetries(run);
      } catch (error) {
        logger.error('feed fan-out failed', { sequence_number: sequenceNumber, error: error as Error });
        failed.push(sequenceNumber);
      }
    });
    const first = failed.sort((a, b) => (BigInt(a || '0') < BigInt(b || '0') ? -1 : 1))[0];
    return { batchItemFailures: first === undefined ? [] : [{ itemIdentifier: first }] };
  };
}

/**
 * The feed queue → inbox writes. Failures are reported per message (the queue sends it again, then
 * to its dead-letter queue); a body that is not a feed message is logged and reported the same way.
 */
export function feedQueueHandler(queue: FeedQueue): FeedQueueHandler {
  return async (event) => {
    const failures: SQSBatchResponse['batchItemFailures'] = [];
    await Promise.all(
      event.Records.map(async (record) => {
        const read = readFeedMessage(record.body);
        if (!read.ok) {
          logger.error('malformed feed message', { messageId: record.messageId, reason: read.reason });
          failures.push({ itemIdentifier: record.messageId });
          return;
        }
        try {
          await writeFeedMessage(read.message, queue);
        } catch (error) {
          logger.error('feed inbox write failed', { messageId: record.messageId, error: error as Error });
          failures.push({ itemIdentifier: record.messageId });
        }
      }),
    );
    return { batchItemFailures: failures };
  };
}
