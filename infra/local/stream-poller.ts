/**
 * The local stand-in for the table stream → Lambda event sources: every consumer reads every
 * shard of the DynamoDB Local stream on its own, as each deployed consumer has its own event
 * source mapping. A consumer that is slow, or keeps failing a record, holds only its own place in
 * that shard: the webhook fan-out never waits for the search index, nor notifications for the feed.
 *
 * Where a consumer starts reading (so a restart loses nothing):
 * - after each handled batch it writes a checkpoint item per shard (last sequence number) and
 *   resumes AFTER it on the next start;
 * - the very first start of a table (no `STARTED` marker) reads from LATEST: history before the
 *   runtime ever ran is not replayed; every later start reads shards without a checkpoint from
 *   TRIM_HORIZON (events written while the server was down are delivered);
 * - a crash between a batch and its checkpoint replays the batch, which is safe: every consumer is
 *   idempotent, and the counter folds count each record once (per-shard watermarks).
 */
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
  type ShardIteratorType,
} from '@aws-sdk/client-dynamodb-streams';
import { setTimeout as delay } from 'node:timers/promises';
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { db, tableName } from '../../shared/store/client.js';
import { entityTags, keys } from '../../shared/store/keys.js';
import { localClient } from './dynamodb-local.js';

/** A batch of one shard, named like a tumbling-window event of the Lambda event source names it. */
export type StreamHandler = (event: DynamoDBStreamEvent & { shardId: string }) => Promise<DynamoDBBatchResponse | void>;

/** The stream's consumers by name (the name keys their checkpoints: keep it stable). */
export type StreamConsumers = Readonly<Record<string, StreamHandler>>;

/** One consumer's place in one shard. */
interface Lane {
  consumer: string;
  shardId: string;
  handler: StreamHandler;
  iterator: string | undefined;
  done: boolean;
  /** The record the consumer keeps failing, and how often it has. */
  failing?: { sequenceNumber: string; attempts: number };
}

/** The pause before a failed record is tried again (the event source backs off too). */
const RETRY_PAUSE_MS = 250;
/** The pause after an error of the stream itself (DynamoDB Local busy or restarting). */
const ERROR_PAUSE_MS = 1000;
/** How often new shards are looked for. */
const DESCRIBE_EVERY_MS = 2000;

/**
 * Retries of a failed record before the poller passes over it. Fewer than the stack's event
 * sources (STREAM_RETRY_ATTEMPTS): every consumer already retries a step in process, so what still
 * fails three batches running is a record that never will (a malformed one).
 */
const LOCAL_RETRY_ATTEMPTS = 3;

const STARTED = keys.streamStarted;
const laneKey = (consumer: string, shardId: string) => `${consumer}#${shardId}`;
/** A checkpoint write is itself a stream record; the consumers never see the poller's own items. */
const isCheckpoint = (record: StreamRecord) => record.dynamodb?.Keys?.pk?.S === STARTED.pk;

type Attribute = { M?: Record<string, Attribute>; L?: Attribute[] };

/**
 * DynamoDB Local writes an empty map into a stream record as `{}` (measured, DynamoDB Local 3.3:
 * `"data":{}` where an empty list is `{"L":[]}`); DynamoDB, and so the event source, sends
 * `{"M":{}}`. The image as Lambda would get it, at any depth.
 */
const asLambdaSees = (image: Record<string, Attribute>): Record<string, Attribute> =>
  Object.fromEntries(Object.entries(image).map(([name, value]) => [name, attributeAsLambdaSees(value)]));
const attributeAsLambdaSees = (value: Attribute): Attribute =>
  Object.keys(value).length === 0
    ? { M: {} }
    : value.M
      ? { M: asLambdaSees(value.M) }
      : value.L
        ? { L: value.L.map(attributeAsLambdaSees) }
        : value;

/** GetRecords errors after which the shard's iterator must be got again. */
const LOST_POSITION: ReadonlySet<string> = new Set(['TrimmedDataAccessException', 'ExpiredIteratorException']);

export class StreamPoller {
  private readonly streams: DynamoDBStreamsClient;
  private readonly lanes = new Map<string, Lane>();
  private readonly running: Promise<void>[] = [];
  private streamArn = '';
  private firstStart = false;
  private stopped = false;
  /** Ends every pause at once when the poller stops. */
  private readonly stopping = new AbortController();
  private discovery: Promise<void> | undefined;

  constructor(
    private readonly endpoint: string,
    private readonly consumers: StreamConsumers,
    private readonly intervalMs = 100,
  ) {
    this.streams = new DynamoDBStreamsClient({
      endpoint,
      region: 'local',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
  }

  /** Resolves once every consumer has an iterator on every shard, so anything written afterwards is seen. */
  async start(): Promise<void> {
    const client = localClient(this.endpoint);
    const table = await client.send(new DescribeTableCommand({ TableName: tableName() }));
    client.destroy();
    this.streamArn = table.Table?.LatestStreamArn ?? '';
    if (!this.streamArn) throw new Error('the table has no stream');
    const marker = await db().send(new GetCommand({ TableName: tableName(), Key: STARTED, ConsistentRead: true }));
    this.firstStart = !marker.Item;
    await this.addNewShards();
    if (this.firstStart) {
      await db().send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...STARTED, entity: entityTags.streamCheckpoint, at: new Date().toISOString() },
        }),
      );
    }
    this.firstStart = false;
    this.discovery = this.discover();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopping.abort();
    await this.discovery;
    await Promise.all(this.running);
    this.streams.destroy();
  }

  /** Each consumer's last handled sequence number per shard, by laneKey. */
  private async checkpoints(): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    const { Items } = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': STARTED.pk },
        ConsistentRead: true,
      }),
    );
    for (const item of Items ?? [])
      if (item.shard_id)
        found.set(laneKey(item.consumer as string, item.shard_id as string), item.sequence_number as string);
    return found;
  }

  private async discover(): Promise<void> {
    while (!this.stopped) {
      await this.sleep(DESCRIBE_EVERY_MS);
      if (this.stopped) return;
      await this.addNewShards().catch((error: Error) => {
        if (!this.stopped) console.error('stream poller:', error.message);
      });
    }
  }

  /** A lane for every consumer on every shard not yet read, each running on its own. */
  private async addNewShards(): Promise<void> {
    const checkpoints = await this.checkpoints();
    let start: string | undefined;
    do {
      const { StreamDescription } = await this.streams.send(
        new DescribeStreamCommand({ StreamArn: this.streamArn, ExclusiveStartShardId: start }),
      );
      for (const shard of StreamDescription?.Shards ?? []) {
        for (const [consumer, handler] of Object.entries(this.consumers)) {
          const key = laneKey(consumer, shard.ShardId!);
          if (this.lanes.has(key)) continue;
          const lane: Lane = { consumer, shardId: shard.ShardId!, handler, iterator: undefined, done: false };
          await this.position(lane, checkpoints.get(key));
          this.lanes.set(key, lane);
          this.running.push(this.run(lane));
        }
      }
      start = StreamDescription?.LastEvaluatedShardId;
    } while (start);
  }

  /**
   * The lane's iterator: after its checkpoint, or (none yet) from LATEST on the table's first
   * start and from the oldest record on any later one. Never from LATEST after that, which would
   * skip what was written meanwhile; a replay is harmless, every consumer is idempotent.
   */
  private async position(lane: Lane, checkpoint: string | undefined): Promise<void> {
    const type: ShardIteratorType = checkpoint ? 'AFTER_SEQUENCE_NUMBER' : this.firstStart ? 'LATEST' : 'TRIM_HORIZON';
    const { ShardIterator } = await this.streams.send(
      new GetShardIteratorCommand({
        StreamArn: this.streamArn,
        ShardId: lane.shardId,
        ShardIteratorType: type,
        ...(checkpoint ? { SequenceNumber: checkpoint } : {}),
      }),
    );
    lane.iterator = ShardIterator;
    lane.done = !ShardIterator;
  }

  private sleep(ms: number): Promise<void> {
    return delay(ms, undefined, { signal: this.stopping.signal }).catch(() => undefined);
  }

  private async run(lane: Lane): Promise<void> {
    while (!this.stopped && !lane.done) {
      // A lane that had records reads on at once: a burst drains without the poll interval.
      const busy = await this.poll(lane).catch(async (error: Error) => {
        // The batch is read again with the same iterator (every consumer is idempotent).
        if (!this.stopped) console.error(`stream poller (${lane.consumer}):`, error.message);
        await this.sleep(ERROR_PAUSE_MS);
        return false;
      });
      if (!busy) await this.sleep(this.intervalMs);
    }
  }

  /** Reads and hands over one batch of the lane's shard; true when it had records. */
  private async poll(lane: Lane): Promise<boolean> {
    if (!lane.iterator) return false;
    const result = await this.streams
      .send(new GetRecordsCommand({ ShardIterator: lane.iterator, Limit: 100 }))
      .catch(async (error: unknown) => {
        if (!LOST_POSITION.has((error as Error).name)) throw error;
        await this.position(lane, (await this.checkpoints()).get(laneKey(lane.consumer, lane.shardId)));
        return undefined;
      });
    if (!result) return false;
    const all = result.Records ?? [];
    const records = all.filter((record) => !isCheckpoint(record));
    // Only batches with other records move the checkpoint, or the poller would feed itself forever.
    if (records.length > 0) {
      const failedAt = await this.handle(lane, records);
      if (failedAt !== undefined) {
        await this.retryFrom(lane, records, failedAt);
        return true;
      }
      lane.failing = undefined;
      await this.checkpoint(lane, all[all.length - 1]!.dynamodb!.SequenceNumber!);
    }
    lane.iterator = result.NextShardIterator;
    if (!lane.iterator) lane.done = true;
    return all.length > 0;
  }

  /**
   * The sequence number the batch must resume at, if any: ReportBatchItemFailures as the event
   * source reads it, and a thrown error as a failure of the whole batch.
   */
  private async handle(lane: Lane, records: StreamRecord[]): Promise<string | undefined> {
    try {
      const response = await lane.handler({
        Records: records.map((record) => this.toLambdaRecord(record)),
        shardId: lane.shardId,
      });
      const failedAt = response?.batchItemFailures?.[0]?.itemIdentifier;
      return failedAt && records.some((r) => r.dynamodb?.SequenceNumber === failedAt) ? failedAt : undefined;
    } catch (error) {
      console.error(`stream poller (${lane.consumer}):`, (error as Error).message);
      return records[0]!.dynamodb!.SequenceNumber!;
    }
  }

  /**
   * Resumes the lane at the failed record after a pause; past LOCAL_RETRY_ATTEMPTS, after it, as
   * AWS sends the record to the consumer's failure destination and goes on (or the lane would stop
   * for ever).
   */
  private async retryFrom(lane: Lane, records: StreamRecord[], failedAt: string): Promise<void> {
    const attempts = lane.failing?.sequenceNumber === failedAt ? lane.failing.attempts + 1 : 1;
    const givenUp = attempts > LOCAL_RETRY_ATTEMPTS;
    if (givenUp)
      console.error(
        `stream poller (${lane.consumer}): record ${failedAt} still failing after ${LOCAL_RETRY_ATTEMPTS} retries, passed over`,
      );
    lane.failing = givenUp ? undefined : { sequenceNumber: failedAt, attempts };
    const index = records.findIndex((r) => r.dynamodb?.SequenceNumber === failedAt);
    if (givenUp) await this.checkpoint(lane, failedAt);
    else if (index > 0) await this.checkpoint(lane, records[index - 1]!.dynamodb!.SequenceNumber!);
    const { ShardIterator } = await this.streams.send(
      new GetShardIteratorCommand({
        StreamArn: this.streamArn,
        ShardId: lane.shardId,
        ShardIteratorType: givenUp ? 'AFTER_SEQUENCE_NUMBER' : 'AT_SEQUENCE_NUMBER',
        SequenceNumber: failedAt,
      }),
    );
    lane.iterator = ShardIterator;
    if (!givenUp) await this.sleep(RETRY_PAUSE_MS);
  }

  private async checkpoint(lane: Lane, last: string): Promise<void> {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...keys.streamCheckpoint(lane.consumer, lane.shardId),
          entity: entityTags.streamCheckpoint,
          consumer: lane.consumer,
          shard_id: lane.shardId,
          sequence_number: last,
        },
      }),
    );
  }

  private toLambdaRecord(record: StreamRecord): DynamoDBRecord {
    return {
      eventID: record.eventID,
      eventName: record.eventName,
      eventVersion: record.eventVersion,
      eventSource: 'aws:dynamodb',
      awsRegion: 'local',
      eventSourceARN: this.streamArn,
      dynamodb: {
        Keys: record.dynamodb?.Keys as never,
        NewImage: record.dynamodb?.NewImage && (asLambdaSees(record.dynamodb.NewImage) as never),
        SequenceNumber: record.dynamodb?.SequenceNumber,
        SizeBytes: record.dynamodb?.SizeBytes,
        StreamViewType: record.dynamodb?.StreamViewType as never,
        ApproximateCreationDateTime: record.dynamodb?.ApproximateCreationDateTime
          ? record.dynamodb.ApproximateCreationDateTime.getTime() / 1000
          : undefined,
      },
    };
  }
}
