/**
 * The local stand-in for the table stream → Lambda event source: polls every shard of the
 * DynamoDB Local stream and hands stream-shaped events to the same fan-out handler.
 *
 * Where it starts reading (so a restart loses nothing):
 * - after each handled batch it writes a checkpoint item per shard (last sequence number) and
 *   resumes AFTER it on the next start;
 * - the very first start of a table (no `STARTED` marker) reads from LATEST: history before the
 *   runtime ever ran is not replayed; every later start reads shards without a checkpoint from
 *   TRIM_HORIZON (events written while the server was down are delivered);
 * - a crash between fan-out and checkpoint replays a batch, which is safe: fan-out is idempotent,
 *   and the counter folds count each record once (per-shard watermarks).
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
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { db, tableName } from '../../shared/store/client.js';
import { entityTags, keys } from '../../shared/store/keys.js';
import { localClient } from './dynamodb-local.js';

/** A batch of one shard, named like a tumbling-window event of the Lambda event source names it. */
export type StreamHandler = (event: DynamoDBStreamEvent & { shardId: string }) => Promise<DynamoDBBatchResponse | void>;

interface ShardState {
  iterator: string | undefined;
  done: boolean;
  /** The record the consumers keep failing, and how often they have. */
  failing?: { sequenceNumber: string; attempts: number };
}

/** The pause before a failed record is tried again (the event source backs off too). */
const RETRY_PAUSE_MS = 250;

/**
 * Retries of a failed record before the poller passes over it. Fewer than the stack's event
 * sources (STREAM_RETRY_ATTEMPTS): every consumer already retries a step in process, so what still
 * fails three batches running is a record that never will (a malformed one), and each retry holds
 * every consumer of the shard.
 */
const LOCAL_RETRY_ATTEMPTS = 3;

const STARTED = keys.streamStarted;

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
  private readonly shards = new Map<string, ShardState>();
  private streamArn = '';
  private firstStart = false;
  private stopped = false;
  private loop: Promise<void> | undefined;
  private lastDescribe = 0;

  constructor(
    private readonly endpoint: string,
    private readonly handler: StreamHandler,
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
    await this.refreshShards();
    if (this.firstStart) {
      await db().send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...STARTED, entity: entityTags.streamCheckpoint, at: new Date().toISOString() },
        }),
      );
    }
    this.firstStart = false;
    this.loop = this.run();
  }

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
      if (item.shard_id) found.set(item.shard_id as string, item.sequence_number as string);
    return found;
  }

  private async refreshShards(): Promise<void> {
    this.lastDescribe = Date.now();
    const checkpoints = await this.checkpoints();
    let start: string | undefined;
    do {
      const { StreamDescription } = await this.streams.send(
        new DescribeStreamCommand({ StreamArn: this.streamArn, ExclusiveStartShardId: start }),
      );
      for (const shard of StreamDescription?.Shards ?? []) {
        const id = shard.ShardId!;
        if (this.shards.has(id)) continue;
        const sequence = checkpoints.get(id);
        const type: ShardIteratorType = sequence
          ? 'AFTER_SEQUENCE_NUMBER'
          : this.firstStart
            ? 'LATEST'
            : 'TRIM_HORIZON';
        const { ShardIterator } = await this.streams.send(
          new GetShardIteratorCommand({
            StreamArn: this.streamArn,
            ShardId: id,
            ShardIteratorType: type,
            ...(sequence ? { SequenceNumber: sequence } : {}),
          }),
        );
        this.shards.set(id, { iterator: ShardIterator, done: !ShardIterator });
      }
      start = StreamDescription?.LastEvaluatedShardId;
    } while (start);
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

  private async pollShard(id: string, state: ShardState): Promise<void> {
    if (state.done || !state.iterator) return;
    const result = await this.streams
      .send(new GetRecordsCommand({ ShardIterator: state.iterator, Limit: 100 }))
      .catch(async (error: unknown) => {
        if (!LOST_POSITION.has((error as Error).name)) throw error;
        await this.reposition(id, state);
        return undefined;
      });
    if (!result) return;
    const records = result.Records ?? [];
    // A checkpoint write is itself a stream record: only batches with other records move the
    // checkpoint, or the poller would feed itself forever.
    if (records.some((r) => r.dynamodb?.Keys?.pk?.S !== STARTED.pk)) {
      const response = await this.handler({ Records: records.map((r) => this.toLambdaRecord(r)), shardId: id });
      // ReportBatchItemFailures, as the event source does it: resume at the reported record.
      const failedAt = response?.batchItemFailures?.[0]?.itemIdentifier;
      const index = failedAt ? records.findIndex((r) => r.dynamodb?.SequenceNumber === failedAt) : -1;
      if (index >= 0 && failedAt) {
        const attempts = state.failing?.sequenceNumber === failedAt ? state.failing.attempts + 1 : 1;
        // Past the event source's retries AWS sends the record to the consumer's failure
        // destination and goes on; so does the poller, or the shard would stop for ever.
        const givenUp = attempts > LOCAL_RETRY_ATTEMPTS;
        if (givenUp)
          console.error(
            `stream poller: record ${failedAt} still failing after ${LOCAL_RETRY_ATTEMPTS} retries, passed over`,
          );
        state.failing = givenUp ? undefined : { sequenceNumber: failedAt, attempts };
        if (givenUp) await this.checkpoint(id, failedAt);
        else if (index > 0) await this.checkpoint(id, records[index - 1]!.dynamodb!.SequenceNumber!);
        const { ShardIterator } = await this.streams.send(
          new GetShardIteratorCommand({
            StreamArn: this.streamArn,
            ShardId: id,
            ShardIteratorType: givenUp ? 'AFTER_SEQUENCE_NUMBER' : 'AT_SEQUENCE_NUMBER',
            SequenceNumber: failedAt,
          }),
        );
        state.iterator = ShardIterator;
        if (!givenUp) await new Promise((r) => setTimeout(r, RETRY_PAUSE_MS));
        return;
      }
      state.failing = undefined;
      await this.checkpoint(id, records[records.length - 1]!.dynamodb!.SequenceNumber!);
    }
    state.iterator = result.NextShardIterator;
    if (!state.iterator) state.done = true;
  }

  /**
   * An iterator DynamoDB Local no longer serves (expired, or its position trimmed; seen under a
   * full test run's load): a new one from the shard's checkpoint, or from its oldest record. Never
   * from LATEST, which would skip what was written meanwhile; a replay is harmless, every consumer
   * is idempotent.
   */
  private async reposition(id: string, state: ShardState): Promise<void> {
    const sequence = (await this.checkpoints()).get(id);
    const { ShardIterator } = await this.streams.send(
      new GetShardIteratorCommand({
        StreamArn: this.streamArn,
        ShardId: id,
        ShardIteratorType: sequence ? 'AFTER_SEQUENCE_NUMBER' : 'TRIM_HORIZON',
        ...(sequence ? { SequenceNumber: sequence } : {}),
      }),
    );
    state.iterator = ShardIterator;
    state.done = !ShardIterator;
  }

  private async checkpoint(id: string, last: string): Promise<void> {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...keys.streamCheckpoint(id),
          entity: entityTags.streamCheckpoint,
          shard_id: id,
          sequence_number: last,
        },
      }),
    );
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      try {
        if (Date.now() - this.lastDescribe > 2000) await this.refreshShards();
        await Promise.all([...this.shards].map(([id, state]) => this.pollShard(id, state)));
      } catch (error) {
        // The batch is retried with the same iterator on the next round (fan-out is idempotent).
        if (!this.stopped) console.error('stream poller:', (error as Error).message);
        await new Promise((r) => setTimeout(r, 1000));
      }
      await new Promise((r) => setTimeout(r, this.intervalMs));
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop;
    this.streams.destroy();
  }
}
