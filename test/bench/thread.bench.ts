/**
 * `npm run bench:thread`: what one thread page costs in DynamoDB, COUNTED, on a throw-away stack.
 * The thread route is served in this process with an SDK middleware on the store's client
 * (dynamodb-calls.ts) recording every call; the page read is a reply 25 levels deep (so its
 * ancestors are cut to the nearest 20) with 30 direct replies, read 20 at a time, anonymously and
 * as a profile that likes some of them (API key and session). Goal (issue 24): at most 2
 * round trips waited for one after another, whatever the depth.
 */
import { sequentialRoundTrips, type DynamoDbCall } from '../support/dynamodb-calls.js';
import { api, printTable, seedKey, seedUser, startCountedServer, startStack, verdict } from './support.js';

const DEPTH = 25;
const REPLIES = 30;
/** Page reads of each kind whose calls are counted. */
const COUNTED = Number(process.env.BENCH_COUNTED ?? 50);
const SEQUENTIAL_GOAL = 2;

async function seed(base: string) {
  const user = await seedUser(base, ['thread_0', 'thread_1'], 'agent');
  const { session, profiles } = user;
  const key = await seedKey(base, user, ['all:all'], profiles);
  const write = (body: Record<string, unknown>, profile: string) => api(base, 'POST', '/v1/posts', body, key, profile);
  const like = (id: string) =>
    api(base, 'PUT', `/v1/posts/${id}/reaction`, { reaction_type: 'like', active: true }, key, profiles[1]);
  const chain: string[] = [(await write({ body: 'The root of a long thread.' }, profiles[0]!)).post.id];
  for (let level = 1; level <= DEPTH; level++) {
    const reply = await write({ body: `Level ${level}.`, reply_to_post_id: chain.at(-1) }, profiles[level % 2]!);
    chain.push(reply.post.id);
  }
  const postId = chain.at(-1)!;
  const replies: string[] = [];
  for (let i = 0; i < REPLIES; i++)
    replies.push((await write({ body: `Answer ${i}.`, reply_to_post_id: postId }, profiles[i % 2]!)).post.id);
  for (const id of [chain[DEPTH - 3]!, postId, replies[0]!, replies[5]!]) await like(id);
  return { key, session, viewer: profiles[1]!, postId };
}

async function main() {
  const stack = await startStack();
  try {
    const seeded = await seed(stack.server.baseUrl);
    // The handlers served in this process, on the same DynamoDB Local, so that their calls can be recorded.
    const served = await startCountedServer();
    const { base, recorder } = served;
    const path = `/v1/posts/${seeded.postId}/thread?limit=20`;
    const asViewer = (token: string) => ({ authorization: `Bearer ${token}`, 'x-profile-id': seeded.viewer });
    const cases: { name: string; headers: Record<string, string> }[] = [
      { name: 'thread page, anonymous', headers: {} },
      { name: 'thread page, API key + X-Profile-Id', headers: asViewer(seeded.key) },
      { name: 'thread page, session + X-Profile-Id', headers: asViewer(seeded.session) },
    ];
    const rows: (string | number)[][] = [];
    try {
      for (const c of cases) {
        const send = async () => {
          const response = await fetch(`${base}${path}`, { headers: c.headers });
          if (!response.ok) throw new Error(`${c.name}: ${response.status} ${await response.text()}`);
          return (await response.json()) as { data: { ancestors: unknown[]; replies: unknown[] } };
        };
        const shown = (await send()).data; // warm: module state, connections
        const measured: DynamoDbCall[][] = [];
        for (let i = 0; i < COUNTED; i++) {
          recorder.reset();
          await send();
          measured.push([...recorder.calls]);
        }
        const chains = measured.map((calls) => sequentialRoundTrips(calls)).sort((a, b) => a - b);
        const sequential = chains[Math.floor(chains.length / 2)]!;
        const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
        // The rate-window booking (UpdateItem) is amortised over many requests: shown apart.
        const reads = measured.map((calls) => calls.filter((call) => call.command !== 'UpdateItem'));
        const typical = reads[reads.length - 1]!.map((call) => call.command).sort();
        rows.push([
          c.name,
          `${shown.ancestors.length} ancestors, ${shown.replies.length} replies`,
          typical.join(' + '),
          mean(measured.map((calls) => calls.length)).toFixed(2),
          `${sequential} (max ${chains.at(-1)})`,
          mean(measured.map((calls) => calls.reduce((sum, call) => sum + call.readUnits, 0))),
          `≤ ${SEQUENTIAL_GOAL} sequential`,
          verdict(
            sequential <= SEQUENTIAL_GOAL,
            `${sequential} sequential`,
            "read the ancestors by the ids the post carries, beside the replies' Query",
          ),
        ]);
      }
    } finally {
      served.close();
    }
    printTable(
      `Thread page: DynamoDB calls of GET /v1/posts/{id}/thread?limit=20 on a reply ${DEPTH} levels deep with ${REPLIES} replies, counted on the client over ${COUNTED} reads of each kind: calls (without the amortised rate-window booking), mean calls per read with it, the longest chain of calls one after another (median), mean read units as DynamoDB Local reports them`,
      ['request', 'page', 'calls', 'calls (mean)', 'sequential (median)', 'RRU', 'goal', ''],
      rows,
    );
  } finally {
    await stack.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
