/**
 * The local stand-in for the table stream → Lambda event sources. Each shard of the DynamoDB
 * Local stream is read once, and its records are queued for every consumer, which handles them on
 * its own, in order, with its own checkpoint and retries, as each deployed consumer has its own
 * event source mapping. A consumer that is slow, or keeps failing a record, holds only itself: the
 * webhook fan-out never waits for the search index, nor notifications for the feed.
 *
 * Each consumer gets the batches its event source mapping gives it (infra/stream-batching.ts):
 * at most its batch size, gathered for up to its batching window unless the batch fills first. So
 * the counter fold and the notifications see a second's records of a shard at once, as deployed,
 * and not what a 100 ms read happened to bring.
 *
 * Where a consumer starts reading (so a restart loses nothing):
 * - it has a checkpoint item per shard (the last sequence number it handled, written every second
 *   and at a stop) and resumes AFTER it on the next start;
 * - the very first start of a table (no `STARTED` marker) reads from LATEST: history before the
 *   runtime ever ran is not replayed; every later start reads shards without a checkpoint from
 *   TRIM_HORIZON (events written while the server was down are delivered);
 * - a crash before a checkpoint is written replays what came after the last one, which is safe:
 *   every consumer is idempotent, and the counter folds count each record once (per-shard
 *   watermarks).
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
import type { StreamBatching } from '../stream-batching.js';
import { db, tableName } from '../../shared/store/client.js';
import { bySequence } from '../../shared/pipeline/batch-failures.js';
import { batchWrite } from '../../shared/store/batch.js';
import { entityTags, keys } from '../../shared/store/keys.js';
import { localClient } from './dynamodb-local.js';

/** A batch of one shard, named like a tumbling-window event of the Lambda event source names it. */
export type StreamHandler = (event: DynamoDBStreamEvent & { shardId: string }) => Promise<DynamoDBBatchResponse | void>;

/** One consumer: its handler, batched as its event source batches it. */
export interface StreamConsumer extends StreamBatching {
  handler: StreamHandler;
}

/** The stream's consumers by name (the name keys their checkpoints: keep it stable). */
export type StreamConsumers = Readonly<Record<string, StreamConsumer>>;

/** One shard, read once for all its consumers. */
interface Shard {
  id: string;
  iterator: string | undefined;
  done: boolean;
  /** The last record handed to the lanes, where a lost iterator resumes. */
  readUpTo: string | undefined;
  lanes: Lane[];
}

/** One consumer's place in one shard: the records read for it and not handled yet. */
interface Lane {
  consumer: string;
  handler: StreamHandler;
  batchSize: number;
  batchingWindowMs: number;
  shardId: string;
  buffer: StreamRecord[];
  /** When each record of the buffer was queued (its batching window starts then). */
  queuedAt: number[];
  /** The last record queued for it (or its checkpoint): what it has already is not queued again. */
  queuedUpTo: string | undefined;
  /** The record the consumer keeps failing, and how often it has. */
  failing?: { sequenceNumber: string; attempts: number };
  /** The last record it handled, not yet written as its checkpoint. */
  unsaved?: string;
  /** Resolves its wait for records. */
  wake?: () => void;
}

/** The pause before a failed record is tried again (the event source backs off too). */
const RETRY_PAUSE_MS = 250;
/** The pause after an error of the stream itself (DynamoDB Local busy or restarting). */
const ERROR_PAUSE_MS = 1000;
/** How often new shards are looked for. */
const DESCRIBE_EVERY_MS = 2000;
/**
 * How often the lanes' checkpoints are written (one batch write for all): a crash replays at most
 * this much, which every consumer takes (they are idempotent), for a write per second instead of
 * one per consumer and batch, each of which the stream would carry back.
 */
const CHECKPOINT_EVERY_MS = 1000;
/** Records per GetRecords: the reader reads on at once while a read brings records. */
const READ_LIMIT = 100;
/**
 * A shard's reader waits while one of its consumers has this many of its batches waiting: a
 * consumer far behind (a burst to index) holds the others only then, and memory stays bounded.
 */
const MAX_WAITING_BATCHES = 10;

/**
 * Retries of a failed record before the poller passes over it. Fewer than the stack's event
 * sources (STREAM_RETRY_ATTEMPTS): every consumer already retries a step in process, so what still
 * fails three batches running is a record that never will (a malformed one).
 */
const LOCAL_RETRY_ATTEMPTS = 3;

const STARTED = keys.streamStarted;
const laneKey = (consumer: string, shardId: string) => `${consumer}#${shardId}`;
const sequenceOf = (record: StreamRecord) => record.dynamodb!.SequenceNumber!;
const isAfter = (sequence: string, mark: string | undefined) => mark === undefined || bySequence(sequence, mark) > 0;
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
  private readonly shards = new Map<string, Shard>();
  private readonly running: Promise<void>[] = [];
  private streamArn = '';
  private firstStart = false;
  private stopped = false;
  /** Ends every pause at once when the poller stops. */
  private readonly stopping = new AbortController();
  private discovery: Promise<void> | undefined;
  private saving: Promise<void> | undefined;

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

  /** Resolves once every shard has an iterator, so anything written afterwards is seen. */
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
    this.saving = this.saveCheckpoints();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopping.abort();
    for (const shard of this.shards.values()) for (const lane of shard.lanes) lane.wake?.();
    await this.discovery;
    await Promise.all(this.running);
    await this.saving;
    await this.writeCheckpoints();
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

  /** A reader for every shard not yet read, and a lane beside it for each consumer. */
  private async addNewShards(): Promise<void> {
    // Read once a new shard shows, not on every look.
    let checkpoints: Map<string, string> | undefined;
    let start: string | undefined;
    do {
      const { StreamDescription } = await this.streams.send(
        new DescribeStreamCommand({ StreamArn: this.streamArn, ExclusiveStartShardId: start }),
      );
      for (const { ShardId: id } of StreamDescription?.Shards ?? []) {
        if (!id || this.shards.has(id)) continue;
        checkpoints ??= await this.checkpoints();
        const known = checkpoints;
        const lanes = Object.entries(this.consumers).map(([consumer, settings]): Lane => ({
          consumer,
          handler: settings.handler,
          batchSize: settings.batchSize,
          batchingWindowMs: settings.batchingWindowSeconds * 1000,
          shardId: id,
          buffer: [],
          queuedAt: [],
          queuedUpTo: known.get(laneKey(consumer, id)),
        }));
        const shard: Shard = { id, iterator: undefined, done: false, readUpTo: undefined, lanes };
        await this.position(shard);
        this.shards.set(id, shard);
        this.running.push(this.read(shard), ...lanes.map((lane) => this.consume(lane)));
      }
      start = StreamDescription?.LastEvaluatedShardId;
    } while (start);
  }

  /**
   * The shard's iterator: after what it last handed on, else after the earliest of its consumers'
   * checkpoints; a consumer without one reads from LATEST on the table's first start and from the
   * oldest record on any later one. Never from LATEST after that, which would skip what was written
   * meanwhile; what a consumer has already is not queued for it again.
   */
  private async position(shard: Shard): Promise<void> {
    const marks = shard.lanes.map((lane) => lane.queuedUpTo);
    const after =
      shard.readUpTo ?? (marks.every((mark) => mark !== undefined) ? [...marks].sort(bySequence)[0] : undefined);
    const type: ShardIteratorType = after ? 'AFTER_SEQUENCE_NUMBER' : this.firstStart ? 'LATEST' : 'TRIM_HORIZON';
    const { ShardIterator } = await this.streams.send(
      new GetShardIteratorCommand({
        StreamArn: this.streamArn,
        ShardId: shard.id,
        ShardIteratorType: type,
        ...(after ? { SequenceNumber: after } : {}),
      }),
    );
    shard.iterator = ShardIterator;
    shard.done = !ShardIterator;
  }

  private sleep(ms: number): Promise<void> {
    return delay(ms, undefined, { signal: this.stopping.signal }).catch(() => undefined);
  }

  /** The shard's reader: reads on at once while there are records, waits the interval when there are none. */
  private async read(shard: Shard): Promise<void> {
    while (!this.stopped && !shard.done) {
      const waiting = shard.lanes.some((lane) => lane.buffer.length >= MAX_WAITING_BATCHES * lane.batchSize);
      const busy =
        !waiting &&
        (await this.readBatch(shard).catch(async (error: Error) => {
          // Read again with the same iterator.
          if (!this.stopped) console.error('stream poller:', error.message);
          await this.sleep(ERROR_PAUSE_MS);
          return false;
        }));
      if (!busy) await this.sleep(this.intervalMs);
    }
  }

  /** One GetRecords, its records queued for every consumer; true when it had records. */
  private async readBatch(shard: Shard): Promise<boolean> {
    if (!shard.iterator) return false;
    const result = await this.streams
      .send(new GetRecordsCommand({ ShardIterator: shard.iterator, Limit: READ_LIMIT }))
      .catch(async (error: unknown) => {
        if (!LOST_POSITION.has((error as Error).name)) throw error;
        await this.position(shard);
        return undefined;
      });
    if (!result) return false;
    const records = result.Records ?? [];
    const now = Date.now();
    for (const record of records) {
      if (isCheckpoint(record)) continue;
      const sequence = sequenceOf(record);
      for (const lane of shard.lanes) {
        if (!isAfter(sequence, lane.queuedUpTo)) continue;
        lane.buffer.push(record);
        lane.queuedAt.push(now);
        lane.queuedUpTo = sequence;
      }
    }
    if (records.length > 0) shard.readUpTo = sequenceOf(records[records.length - 1]!);
    for (const lane of shard.lanes) if (lane.buffer.length > 0) lane.wake?.();
    shard.iterator = result.NextShardIterator;
    if (!shard.iterator) shard.done = true;
    return records.length > 0;
  }

  /** A consumer's lane: its waiting records in batches, in order, each batch until it is handled or passed over. */
  private async consume(lane: Lane): Promise<void> {
    while (!this.stopped) {
      if (lane.buffer.length === 0) {
        await this.waitForRecords(lane);
        continue;
      }
      await this.gather(lane);
      // What was gathered and not handled is read again after the next start (no checkpoint).
      if (this.stopped) return;
      const batch = lane.buffer.slice(0, lane.batchSize);
      const failedAt = await this.handle(lane, batch);
      const givenUp = failedAt >= 0 && this.givesUp(lane, sequenceOf(batch[failedAt]!));
      const handled = failedAt < 0 ? batch.length : givenUp ? failedAt + 1 : failedAt;
      if (failedAt < 0) lane.failing = undefined;
      if (handled > 0) {
        lane.buffer.splice(0, handled);
        lane.queuedAt.splice(0, handled);
        lane.unsaved = sequenceOf(batch[handled - 1]!);
      }
      if (failedAt >= 0 && !givenUp) await this.sleep(RETRY_PAUSE_MS);
    }
  }

  /**
   * The batching window: waits until the lane's oldest record has waited the consumer's window, or
   * a whole batch is there, as the event source gathers records before it invokes. A batch tried
   * again (after a failure) has waited its window already and goes at once.
   */
  private async gather(lane: Lane): Promise<void> {
    const due = lane.queuedAt[0]! + lane.batchingWindowMs;
    while (!this.stopped && lane.buffer.length < lane.batchSize && Date.now() < due)
      await this.waitForRecords(lane, due - Date.now());
  }

  /** Until the reader queues records for the lane (or the poller stops), or at most `ms`. */
  private async waitForRecords(lane: Lane, ms?: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      lane.wake = resolve;
      if (ms !== undefined) timer = setTimeout(resolve, ms);
    });
    clearTimeout(timer);
    lane.wake = undefined;
  }

  /**
   * Where the batch failed (-1: handled whole): ReportBatchItemFailures as the event source reads
   * it, and a thrown error as a failure of the whole batch.
   */
  private async handle(lane: Lane, batch: StreamRecord[]): Promise<number> {
    try {
      const response = await lane.handler({
        Records: batch.map((record) => this.toLambdaRecord(record)),
        shardId: lane.shardId,
      });
      const failed = response?.batchItemFailures?.[0]?.itemIdentifier;
      return failed ? batch.findIndex((record) => sequenceOf(record) === failed) : -1;
    } catch (error) {
      console.error(`stream poller (${lane.consumer}):`, (error as Error).message);
      return 0;
    }
  }

  /**
   * Whether the failing record is passed over: after LOCAL_RETRY_ATTEMPTS, as AWS sends it to the
   * consumer's failure destination and goes on (or the lane would stop for ever).
   */
  private givesUp(lane: Lane, sequence: string): boolean {
    const attempts = lane.failing?.sequenceNumber === sequence ? lane.failing.attempts + 1 : 1;
    const givenUp = attempts > LOCAL_RETRY_ATTEMPTS;
    lane.failing = givenUp ? undefined : { sequenceNumber: sequence, attempts };
    if (givenUp)
      console.error(
        `stream poller (${lane.consumer}): record ${sequence} still failing after ${LOCAL_RETRY_ATTEMPTS} retries, passed over`,
      );
    return givenUp;
  }

  private async saveCheckpoints(): Promise<void> {
    while (!this.stopped) {
      await this.sleep(CHECKPOINT_EVERY_MS);
      await this.writeCheckpoints();
    }
  }

  /** Notes how far each lane got; a lost write only means a replay after a restart. */
  private async writeCheckpoints(): Promise<void> {
    const lanes = [...this.shards.values()].flatMap((shard) => shard.lanes).filter((lane) => lane.unsaved);
    const requests = lanes.map((lane) => ({
      PutRequest: {
        Item: {
          ...keys.streamCheckpoint(lane.consumer, lane.shardId),
          entity: entityTags.streamCheckpoint,
          consumer: lane.consumer,
          shard_id: lane.shardId,
          sequence_number: lane.unsaved,
        },
      },
    }));
    for (const lane of lanes) lane.unsaved = undefined;
    await batchWrite(requests).catch((error: Error) => {
      console.error('stream poller: checkpoints not written:', error.message);
    });
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
