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
import { publishesIntoFeeds, type FeedPost } from '../../shared/domain/feed.js';
import { fanOutPost, followIntoFeed, type FeedFanOutSettings } from '../../shared/feed/fan-out.js';
import { writeFeedMessage } from '../../shared/feed/write-inboxes.js';
import { decodeImage, type Decoded } from '../../shared/pipeline/decode.js';
import { queueHandler } from '../../shared/pipeline/sqs-consumer.js';
import { STREAM_STEP_RETRY, streamHandler } from '../../shared/pipeline/stream-consumer.js';
import { FeedMessage, type FeedQueue } from '../../shared/ports/feed-queue.js';
import { entityTags } from '../../shared/store/keys.js';

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

export const feedFanOutSettingsFromConfig = (): FeedFanOutSettings => ({ maxFollowers: config.feedFanOutMaxFollowers });

/** The feed work one stream record asks for. */
type FeedWork = { kind: 'post'; post: FeedPost } | { kind: 'follow'; follow: z.infer<typeof FollowImage> };

/** The feed work a record asks for, if any; a record of ours whose image is not what it should be is malformed. */
function feedWorkOf(record: DynamoDBRecord): Decoded<FeedWork> | undefined {
  const image = record.dynamodb?.NewImage;
  const entity = image?.entity?.S;
  if (entity === entityTags.post && (record.eventName === 'INSERT' || record.eventName === 'MODIFY')) {
    const read = decodeImage(PostImage, image);
    if (!read.ok) return read;
    const post = read.record;
    if (!publishesIntoFeeds(record.eventName, post)) return undefined;
    return {
      ok: true,
      record: {
        kind: 'post',
        post: { post_id: post.id, author_id: post.profile_id, published_at: post.published_at! },
      },
    };
  }
  if (entity === entityTags.follow && record.eventName === 'INSERT') {
    const read = decodeImage(FollowImage, image);
    return read.ok ? { ok: true, record: { kind: 'follow', follow: read.record } } : read;
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
  return streamHandler<FeedWork>(
    {
      records: 'feed record',
      failure: 'feed fan-out failed',
      select: feedWorkOf,
      concurrency: RECORDS_AT_ONCE,
      retry: STREAM_STEP_RETRY,
      each: (work) => (work.kind === 'post' ? fanOutPost(work.post, queue, settings) : followIntoFeed(work.follow)),
    },
    { reportBatchItemFailures: true },
  );
}

/**
 * The feed queue → inbox writes. Failures are reported per message (the queue sends it again, then
 * to its dead-letter queue); a body that is not a feed message is logged and reported the same way.
 */
export function feedQueueHandler(queue: FeedQueue): FeedQueueHandler {
  return queueHandler({
    messages: 'feed message',
    failure: 'feed inbox write failed',
    schema: FeedMessage,
    handle: (message) => writeFeedMessage(message, queue),
  });
}
