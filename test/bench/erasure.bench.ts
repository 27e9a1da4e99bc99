/**
 * `npm run bench:erasure`: the erasure of a profile of 1,000 posts (50 with an image), 1,000
 * followers and 300 messages (both ways), on a throw-away DynamoDB Local (in memory) behind the
 * counting proxy (capacity-proxy.ts), the local server in a child process. Reports the time from
 * the DELETE's answer until nothing of the profile is left but its tombstone (the job item gone),
 * and the write units the erasure cost (its steps and the stream folds that follow) per item it
 * erased. Not a test: it measures and prints goals with verdicts, it asserts nothing.
 *
 * The followers follow after the posts, so each gets the new follow's backfill (the newest
 * FEED_BACKFILL_POSTS) rather than every post's fan-out: a million fanned-out entries take the
 * local runtime's stream well over an hour to seed, and the erasure reads none of them (a
 * follower's feed holds post ids alone: docs/decisions.md). `BENCH_FAN_OUT=1` follows first, for
 * the whole fan-out (at a smaller size: `BENCH_POSTS=200 BENCH_FOLLOWERS=200`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { mapLimit } from '../../shared/pipeline/concurrency.js';
import { FEED_BACKFILL_POSTS } from '../../shared/domain/feed.js';
import { keys } from '../../shared/store/keys.js';
import { solidImage } from '../support/uploads.js';
import type { CountedWrite } from './capacity-proxy.js';
import { api, printTable, seedKey, seedUser, startProxiedStack, verdict } from './support.js';

const TABLE_NAME = 'social-network-bench-erasure';
const POSTS = Number(process.env.BENCH_POSTS ?? 1000);
const FOLLOWERS = Number(process.env.BENCH_FOLLOWERS ?? 1000);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 300);
const IMAGES = Number(process.env.BENCH_IMAGES ?? 50);
const FAN_OUT = process.env.BENCH_FAN_OUT === '1';
const AT_ONCE = 16;
const GOALS = { seconds: 60 };

const direct = (endpoint: string) =>
  DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } }),
  );

/** How many items the table holds, read past the proxy (uncounted). */
async function tableCount(endpoint: string): Promise<number> {
  const db = direct(endpoint);
  let count = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.send(new ScanCommand({ TableName: TABLE_NAME, ExclusiveStartKey: start, Select: 'COUNT' }));
    count += page.Count ?? 0;
    start = page.LastEvaluatedKey;
  } while (start);
  return count;
}

type Item = Record<string, unknown>;

/** The items a counted write deletes (a delete of an item already gone, on a replay or the second pass, counts too). */
function deletesOf(write: CountedWrite): number {
  if (write.operation === 'DeleteItem') return 1;
  if (write.operation === 'BatchWriteItem')
    return Object.values(write.input.RequestItems as Record<string, Item[]>)
      .flat()
      .filter((r) => r.DeleteRequest).length;
  if (write.operation === 'TransactWriteItems')
    return (write.input.TransactItems as Item[]).filter((t) => t.Delete).length;
  return 0;
}

/** How many items one partition holds (a follower's inbox or event log), past the proxy. */
async function partitionCount(endpoint: string, pk: string): Promise<number> {
  const db = direct(endpoint);
  let count = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: TABLE_NAME,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': pk },
        Select: 'COUNT',
        ExclusiveStartKey: start,
      }),
    );
    count += page.Count ?? 0;
    start = page.LastEvaluatedKey;
  } while (start);
  return count;
}

const seedingStarted = Date.now();
/** Says how long the seeding has taken so far (the bench runs for minutes before it measures). */
const progress = (done: string) =>
  console.log(`seeded ${done} (${Math.round((Date.now() - seedingStarted) / 1000)} s)`);

/** Waits until `read` answers at least `want`, printing progress now and then. */
async function waitFor(what: string, read: () => Promise<number>, want: number): Promise<void> {
  const started = Date.now();
  for (let n = await read(); n < want; n = await read()) {
    console.log(`${what}: ${n} of ${want} (${Math.round((Date.now() - started) / 1000)} s)`);
    await new Promise((r) => setTimeout(r, 10_000));
  }
}

async function uploadImage(base: string, key: string, profileId: string, file: Buffer): Promise<string> {
  const { media, upload } = await api(
    base,
    'POST',
    '/v1/media',
    { purpose: 'post_image', content_type: 'image/png', content_length: file.length },
    key,
    profileId,
  );
  const form = new FormData();
  for (const [name, value] of Object.entries(upload.fields as Record<string, string>)) form.append(name, value);
  form.append('file', new Blob([new Uint8Array(file)], { type: 'image/png' }), 'upload');
  await fetch(upload.url as string, { method: 'POST', body: form });
  for (;;) {
    const read = await api(base, 'GET', `/v1/media/${media.id as string}`, undefined, key, profileId);
    if (read.status === 'ready') return media.id as string;
    if (read.status === 'failed') throw new Error(`media ${media.id as string} failed`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-erasure-'));
  const stack = await startProxiedStack(TABLE_NAME, { PASSWORD_SCRYPT_LOG2_N: '14', DATA_DIR: dataDir });
  const base = stack.server.baseUrl;
  try {
    const owner = await seedUser(base, ['erased']);
    const subject = owner.profiles[0]!;
    const ownerKey = await seedKey(base, owner, ['all:all'], [subject]);
    const crowd = await seedUser(base, []);
    const crowdKey = await seedKey(base, crowd, ['all:all'], []);
    const run = Date.now() % 100000;
    const followers = await mapLimit(
      Array.from({ length: FOLLOWERS }, (_, i) => i),
      AT_ONCE,
      async (i) =>
        (
          await api(
            base,
            'POST',
            '/v1/profiles',
            { type: 'human', username: `f${i}_${run}`, name: `Follower ${i}`, call_name: 'F' },
            crowdKey,
          )
        ).id as string,
    );
    const follow = () =>
      mapLimit(followers, AT_ONCE, (id) =>
        api(base, 'POST', '/v1/profile-follows', { followed_profile_id: subject }, crowdKey, id),
      );
    progress(`${FOLLOWERS} followers' profiles`);
    if (FAN_OUT) await follow();
    const file = await solidImage(640, 480);
    const images = await mapLimit(
      Array.from({ length: IMAGES }, (_, i) => i),
      4,
      () => uploadImage(base, ownerKey, subject, file),
    );
    await mapLimit(
      Array.from({ length: POSTS }, (_, i) => i),
      AT_ONCE,
      (i) =>
        api(
          base,
          'POST',
          '/v1/posts',
          { body: `post ${i} of the erased profile`, images: i < images.length ? [{ media_id: images[i] }] : [] },
          ownerKey,
          subject,
        ),
    );
    progress(`${IMAGES} images, ${POSTS} posts${FAN_OUT ? ', the follows' : ''}`);
    if (!FAN_OUT) {
      // The posts' fan-out done first (its last write is the author's own entry): else a fan-out
      // still behind on the stream reads the new followers and fans out to them after all.
      await waitFor('posts fanned out', () => partitionCount(stack.dynamodbEndpoint, keys.feedInbox(subject)), POSTS);
      await follow();
    }
    const other = followers[0]!;
    // One at a time: each message moves both sides' conversation items, which concurrent sends would contend on.
    await mapLimit(
      Array.from({ length: MESSAGES }, (_, i) => i),
      1,
      (i) =>
        i % 2 === 0
          ? api(base, 'POST', '/v1/messages', { recipient_profile_id: other, body: `to ${i}` }, ownerKey, subject)
          : api(base, 'POST', '/v1/messages', { recipient_profile_id: subject, body: `from ${i}` }, crowdKey, other),
    );
    progress(`${FAN_OUT ? '' : 'the follows, '}${MESSAGES} messages`);
    // Let the pipelines (feed fan-out or backfill, feed.post events, notifications, search, counters)
    // settle before measuring: two followers' inboxes full (each post fans out in its own order)
    // and the follower count folded.
    for (const id of [followers[0]!, followers.at(-1)!])
      await waitFor(
        `inbox of ${id}`,
        () => partitionCount(stack.dynamodbEndpoint, keys.feedInbox(id)),
        FAN_OUT ? POSTS : Math.min(POSTS, FEED_BACKFILL_POSTS),
      );
    await waitFor(
      'followers counted',
      async () => (await api(base, 'GET', `/v1/profiles/${subject}`)).followers_count as number,
      FOLLOWERS,
    );
    // A pause for the consumers behind them. (Waiting for the whole table's count to hold still
    // does not end at this size: some consumer always has a write in flight.)
    await new Promise((r) => setTimeout(r, 15_000));
    const before = await tableCount(stack.dynamodbEndpoint);

    stack.proxy.reset();
    const { username } = await api(base, 'GET', `/v1/profiles/${subject}`);
    await api(base, 'DELETE', `/v1/profiles/${subject}`, { confirm_username: username }, owner.session);
    const started = Date.now();
    // Polled by its path, past the proxy: a Scan of a table this size would compete with the erasure it waits for.
    process.env.DYNAMODB_ENDPOINT = stack.dynamodbEndpoint;
    process.env.TABLE_NAME = TABLE_NAME;
    const { erasureJobsOfStatus } = await import('../../shared/store/erasure-jobs.js');
    while ((await erasureJobsOfStatus('in_progress')).length > 0) await new Promise((r) => setTimeout(r, 200));
    const seconds = (Date.now() - started) / 1000;
    // The folds that follow the last deletes (counts, notifications) are part of the erasure's cost.
    await new Promise((r) => setTimeout(r, 3000));
    const erased = stack.proxy.writes().reduce((sum, write) => sum + deletesOf(write), 0);
    const units = stack.proxy.units();
    printTable(
      `Erasure of a profile of ${POSTS} posts, ${FOLLOWERS} followers (${FAN_OUT ? 'every post fanned out' : 'each with the backfill'}), ${MESSAGES} messages, ${IMAGES} images`,
      ['measure', 'value', 'verdict'],
      [
        ['items in the table before', before, ''],
        ['items erased (delete requests)', erased, ''],
        [
          'time to clean (s)',
          seconds,
          verdict(
            seconds <= GOALS.seconds,
            `≤ ${GOALS.seconds} s`,
            'more chains in flight, feed entries deleted by derived keys without reading inboxes',
          ),
        ],
        ['write units (table + indexes)', units.total, ''],
        ['write units per erased item', units.total / Math.max(1, erased), ''],
        ['write requests', units.requests, ''],
      ],
    );
  } finally {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
