/**
 * `npx tsx test/bench/likes.bench.ts`: likes on one post from 400 profiles, 16 in flight, through
 * the real local runtime (HTTP → reaction item; stream poller → counter fold), with DynamoDB Local
 * behind a proxy that asks for ReturnConsumedCapacity=INDEXES on every write and books each
 * write's units on the partition keys it wrote (capacity-proxy.ts). Reports:
 * - write units per like: the like's own write (its item and its copy on the liker's likes path),
 *   and with the counter fold's writes spread over the likes they counted (goal ≤ 3);
 * - the hottest partition key of the likes and its share of them, and the per-post ceiling on AWS
 *   that follows: 1,000 WCU/s per partition ÷ the hottest key's units per like (goal ≥ 5,000/s);
 * - the counter fold: its writes per batch per counter (goal ≤ 1), units per write, and what its
 *   writes put on the post's partition in AWS, where they follow the stream's batches, not the
 *   likes; and how long after the last like the count was exact (goal ≤ 2 s);
 * - the post's own item as the hot key it is locally: the fold's units on it per like, and the
 *   per-post rate that would allow if its writes followed the likes;
 * - table calls per like: the like's own request's, and those of the stream consumers it sets off
 *   (the counter fold's update of the post, the notifications' reads and writes of the author's
 *   group and inbox), which the local poller batches as the event sources do (infra/stream-batching.ts).
 * Not a test: it measures, it asserts nothing.
 */
import os from 'node:os';
import { KEY_SHARDS } from '../../shared/store/keys.js';
import { type CountedWrite, type TableCall } from './capacity-proxy.js';
import { api, percentile, printTable, seedKey, seedUser, startProxiedStack, verdict } from './support.js';

const PROFILES = Number(process.env.BENCH_LIKERS ?? 400);
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 16);
/** API keys carry at most 100 profiles each. */
const PROFILES_PER_KEY = 100;
const TABLE_NAME = 'social-network-bench';
/** What one partition takes on AWS (on-demand tables too). */
const PARTITION_WCU_PER_SECOND = 1000;
/** The counter fold's event source in AWS: one batch per stream shard per second at most (infra/counters.ts). */
const AWS_FOLD_BATCHES_PER_SHARD_PER_SECOND = 1;

const GOALS = { unitsPerLike: 3, likesPerSecond: 5000, foldWritesPerBatch: 1, lagMs: 2000 };

async function seed(base: string) {
  const user = await seedUser(
    base,
    Array.from({ length: PROFILES + 1 }, (_, i) => `liker_${i}`),
  );
  const { profiles } = user;
  const [author, ...likers] = profiles;
  const keyOf = new Map<string, string>();
  for (let i = 0; i < profiles.length; i += PROFILES_PER_KEY) {
    const slice = profiles.slice(i, i + PROFILES_PER_KEY);
    const key = await seedKey(base, user, ['posts:write', 'posts:read'], slice, `likes ${i}`);
    for (const id of slice) keyOf.set(id, key);
  }
  const { post } = await api(
    base,
    'POST',
    '/v1/posts',
    { body: 'A post everyone likes. '.repeat(8) },
    keyOf.get(author!),
    author,
  );
  return { author: author!, likers, keyOf, postId: post.id as string };
}

/** The watermark a fold's write moves (`wm_<shard>`) and the mark it sets (`<sequence>|<seconds>`), if it is one. */
function foldMarkOf(w: CountedWrite): { watermark: string; mark: string } | undefined {
  if (w.operation !== 'UpdateItem') return undefined;
  const names = Object.values((w.input.ExpressionAttributeNames ?? {}) as Record<string, string>);
  const watermark = names.find((name) => name.startsWith('wm_'));
  const values = Object.values((w.input.ExpressionAttributeValues ?? {}) as Record<string, { S?: string }>);
  const mark = values.map((v) => v.S ?? '').find((v) => /^\d{40}\|\d+$/.test(v));
  return watermark && mark ? { watermark, mark } : undefined;
}

/** The fold's writes of one counter item: each moves its shard's watermark to a new mark. */
function foldWritesOf(writes: CountedWrite[], pk: string) {
  const folds = writes.flatMap((w) => {
    const key = w.input.Key as { pk?: { S?: string } } | undefined;
    const fold = key?.pk?.S === pk ? foldMarkOf(w) : undefined;
    return fold ? [{ ...fold, units: w.units }] : [];
  });
  // One batch of one shard: its shard and the last sequence number it counted.
  const batches = new Set(folds.map((f) => `${f.watermark}|${f.mark.slice(0, f.mark.indexOf('|'))}`));
  return { writes: folds.length, batches: batches.size, units: folds.reduce((sum, w) => sum + w.units, 0) };
}

/**
 * Whose table call it was during the likes: a like's own request (its credential and profile read,
 * the liker's safety sets, the reaction item, the rate window), the counter fold (its update of the
 * post), or the notifications (the post and its author's safety sets, preferences, group and
 * inbox); undefined for the runtime's others (the sweeper's look for due deliveries).
 */
function whoseCall(call: TableCall, postPk: string, authorId: string): 'like' | 'fold' | 'notifications' | undefined {
  if (call.operation === 'UpdateItem' && call.pk === postPk) return 'fold';
  if (
    call.pk.startsWith('NOTIF') ||
    call.pk === `SAFETY#${authorId}` ||
    (call.operation === 'GetItem' && call.pk === postPk)
  )
    return 'notifications';
  if (
    (call.operation === 'BatchGetItem' && call.pk.startsWith('PROFILE#')) ||
    call.pk.startsWith('SAFETY#') ||
    call.pk.startsWith(`${postPk}#REACTIONS#`) ||
    call.pk.startsWith('RATELIMIT#')
  )
    return 'like';
  return undefined;
}

async function main() {
  const stack = await startProxiedStack(TABLE_NAME);
  const { proxy, server } = stack;
  try {
    const base = server.baseUrl;
    const { author, likers, keyOf, postId } = await seed(base);
    const likesCount = async () => (await api(base, 'GET', `/v1/posts/${postId}`)).post.likes_count as number;

    proxy.reset();
    const latencies: number[] = [];
    const queue = [...likers];
    const started = performance.now();
    let lastAnswered = started;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        for (let liker = queue.shift(); liker; liker = queue.shift()) {
          const t = performance.now();
          await api(
            base,
            'PUT',
            `/v1/posts/${postId}/reaction`,
            { reaction_type: 'like', active: true },
            keyOf.get(liker),
            liker,
          );
          lastAnswered = performance.now();
          latencies.push(lastAnswered - t);
        }
      }),
    );
    const likeSeconds = (lastAnswered - started) / 1000;
    // The likes' own calls are over; the consumers' go on (counted to the end), and the reads of
    // likes_count below are the bench's, not the likes'.
    const callsOfTheLikes = proxy.calls().length;
    let count = await likesCount();
    while (count !== likers.length && performance.now() - lastAnswered < 30_000) {
      await new Promise((r) => setTimeout(r, 25));
      count = await likesCount();
    }
    const lagMs = performance.now() - lastAnswered;
    // Whatever the fold writes a moment later is still the likes' (it should write nothing more).
    await new Promise((r) => setTimeout(r, 500));
    const likes = likers.length;
    const book = proxy.partitions();
    const writes = proxy.writes();

    const postPk = `POST#${postId}`;
    const reactionKeys = [...book].filter(([key]) => key.startsWith(`${postPk}#REACTIONS#`));
    const reactionUnits = reactionKeys.reduce((sum, [, e]) => sum + e.units, 0);
    const [hottestKey, hottest] = reactionKeys.sort((a, b) => b[1].units - a[1].units)[0]!;
    const fold = foldWritesOf(writes, postPk);
    // Each like's copy on its liker's likes path (PROFILE#<liker>#LIKES: the export's and the erasure's).
    const likerPathUnits = [...book]
      .filter(([key]) => key.startsWith('gsi') && key.endsWith('#LIKES'))
      .reduce((sum, [, e]) => sum + e.units, 0);
    const foldIndexUnits = [...book]
      .filter(([key]) => key.startsWith('gsi'))
      .filter(([key]) => !key.includes('RATELIMIT') && !key.endsWith('#LIKES'))
      .reduce((sum, [, e]) => sum + e.units, 0);
    const bookings = [...book].filter(([key]) => key.startsWith('RATELIMIT#'));
    const bookingUnits = bookings.reduce((sum, [, e]) => sum + e.units, 0);
    const unitsPerLike = (reactionUnits + likerPathUnits) / likes;
    const foldPerLike = fold.units / likes;
    const hottestPerLike = hottest.units / likes;
    const ceiling = PARTITION_WCU_PER_SECOND / hottestPerLike;
    const unitsPerFold = fold.units / Math.max(1, fold.writes);
    const postItem = book.get(postPk) ?? { writes: 0, units: 0 };
    // In AWS the post's counter takes one write per stream shard its likes come through, per
    // batch: at most one shard per key shard, one batch per shard per second.
    const awsFoldWcu =
      KEY_SHARDS * AWS_FOLD_BATCHES_PER_SHARD_PER_SECOND * (postItem.units / Math.max(1, postItem.writes));
    latencies.sort((a, b) => a - b);

    const postPerLike = postItem.units / likes;
    const callsBy = { like: 0, fold: 0, notifications: 0 };
    for (const [index, call] of proxy.calls().entries()) {
      const whose = whoseCall(call, postPk, author);
      // The reads of likes_count after the likes are the bench's.
      if (whose && (whose !== 'like' || index < callsOfTheLikes)) callsBy[whose] += 1;
    }

    const postBook = [...book].filter(([key]) => key === postPk || key.endsWith(`#POSTS`));
    printTable(
      `Likes on one post: ${likes} profiles, ${IN_FLIGHT} in flight, over HTTP on the local runtime (${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, Node ${process.version}); ` +
        `write units as DynamoDB Local reports them (ReturnConsumedCapacity=INDEXES), booked on the partition keys written; ${KEY_SHARDS} key shards per post`,
      ['measure', 'value', 'goal', ''],
      [
        [
          'likes answered',
          `${likes} in ${likeSeconds.toFixed(1)} s (${(likes / likeSeconds).toFixed(0)}/s locally), p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms`,
          '',
          '',
        ],
        [
          "write units per like: its own reaction item, and its copy on the liker's likes path",
          `${unitsPerLike.toFixed(2)} (${(reactionUnits / likes).toFixed(2)} + ${(likerPathUnits / likes).toFixed(2)})`,
          '',
          '',
        ],
        [
          'write units per like, with the counter fold',
          `${(unitsPerLike + foldPerLike).toFixed(2)} (fold ${foldPerLike.toFixed(2)}: ${fold.writes} writes for ${likes} likes)`,
          `≤ ${GOALS.unitsPerLike}`,
          verdict(
            unitsPerLike + foldPerLike <= GOALS.unitsPerLike,
            (unitsPerLike + foldPerLike).toFixed(2),
            'find the writes beside the reaction item and the fold in the partition table below',
          ),
        ],
        [
          'hottest partition key of the likes',
          `${hottestKey}: ${hottest.writes} of ${likes} likes (${((100 * hottest.writes) / likes).toFixed(1)} %), ${hottestPerLike.toFixed(3)} units per like of the post`,
          `a few % (1/${KEY_SHARDS} = ${(100 / KEY_SHARDS).toFixed(1)} % on average)`,
          '',
        ],
        [
          'per-post ceiling on AWS (1,000 WCU/s ÷ hottest key units per like)',
          `${Math.round(ceiling).toLocaleString('en-US')} likes/s`,
          `≥ ${GOALS.likesPerSecond.toLocaleString('en-US')}/s`,
          verdict(
            ceiling >= GOALS.likesPerSecond,
            `${Math.round(ceiling)} likes/s`,
            'more key shards per post (KEY_SHARDS)',
          ),
        ],
        [
          'counter fold: writes of the post per batch',
          `${(fold.writes / Math.max(1, fold.batches)).toFixed(2)} (${fold.writes} writes, ${fold.batches} batches)`,
          `≤ ${GOALS.foldWritesPerBatch}`,
          verdict(
            fold.writes <= fold.batches * GOALS.foldWritesPerBatch,
            (fold.writes / Math.max(1, fold.batches)).toFixed(2),
            "find the fold's conflicting writes (store/counter-fold.ts)",
          ),
        ],
        [
          'counter fold: units per write of the post (its index copy included)',
          `${unitsPerFold.toFixed(2)} (${foldIndexUnits.toFixed(1)} of the fold's ${fold.units} on gsi1)`,
          '',
          '',
        ],
        [
          "counter fold on the post's partition in AWS (≤ 1 batch/s per stream shard, ≤ 1 shard per key shard, units per write as here)",
          `≤ ${awsFoldWcu.toFixed(0)} WCU/s of 1,000 (the same on the author's posts index key), whatever the like rate`,
          '',
          '',
        ],
        [
          'likes_count exact after the last like answered',
          `${lagMs.toFixed(0)} ms (count ${count})`,
          `≤ ${GOALS.lagMs} ms`,
          verdict(
            count === likes && lagMs <= GOALS.lagMs,
            `${lagMs.toFixed(0)} ms, count ${count}`,
            "find what the fold's lane waits for: its retries, or a batching window near the goal",
          ),
        ],
        [
          "the post's item here (the fold's writes): units per like, and the per-post rate it allows if they followed the likes (1,000 WCU/s ÷ units per like)",
          `${postPerLike.toFixed(3)} → ${Math.round(PARTITION_WCU_PER_SECOND / postPerLike).toLocaleString('en-US')} likes/s`,
          '',
          '',
        ],
        [
          "table calls per like: the like's own request, and the stream consumers' it sets off (counter fold + notifications)",
          `${(callsBy.like / likes).toFixed(2)} + ${((callsBy.fold + callsBy.notifications) / likes).toFixed(2)} (${(callsBy.fold / likes).toFixed(2)} + ${(callsBy.notifications / likes).toFixed(2)})`,
          '',
          '',
        ],
        [
          "rate-limit bookings meanwhile (every request books its window; not the like's)",
          `${bookings.reduce((sum, [, e]) => sum + e.writes, 0)} writes, ${bookingUnits.toFixed(1)} units`,
          '',
          '',
        ],
      ],
    );
    printTable(
      'Partition keys written during the likes (the post item, its index copy, the 5 busiest reaction keys)',
      ['partition key', 'writes', 'units', 'units per like'],
      [...postBook, ...reactionKeys.slice(0, 5)].map(([key, e]) => [
        key,
        e.writes,
        e.units,
        (e.units / likes).toFixed(3),
      ]),
    );
  } finally {
    await stack.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
