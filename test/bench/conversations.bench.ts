/**
 * `npm run bench:conversations`: what messages as an inbox cost, on a throw-away DynamoDB Local
 * (in memory) with the handlers served in this process, every DynamoDB call recorded on the
 * store's client (dynamodb-calls.ts: calls, chains, read units) and every write's units counted by
 * the capacity proxy in front of DynamoDB Local (capacity-proxy.ts: the table's and each index's,
 * an index key change as its delete and put, transactional writes doubled).
 * 1. POST /v1/messages into the inbox and into requests: calls, the longest chain of calls waited
 *    for one after another, write and read units; against the send before conversations, replayed
 *    on the same client (a GetItem of the recipient, then the transaction of the message and its
 *    message.created event).
 * 2. POST /v1/conversations/{id}/read, GET /v1/conversations (20) and the unread count.
 * Not a test: it measures and prints goals with verdicts, it asserts nothing.
 */
import { ensureTable, startDynamoDbLocal } from '../../infra/local/dynamodb-local.js';
import { newMessage } from '../../shared/domain/social.js';
import { sequentialRoundTrips, type DynamoDbCall } from '../support/dynamodb-calls.js';
import { startCapacityProxy, type CapacityProxy } from './capacity-proxy.js';
import { api, printTable, seedKey, seedUser, startCountedServer, verdict } from './support.js';

const TABLE_NAME = 'social-network-bench-conversations';
const COUNTED = Number(process.env.BENCH_COUNTED ?? 30);

const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
/** The rate-window booking (UpdateItem) is every request's and amortised; left out of the figures. */
const counted = (calls: DynamoDbCall[]) => calls.filter((call) => call.command !== 'UpdateItem');
const countedUnits = (proxy: CapacityProxy) =>
  proxy
    .writes()
    .filter((write) => !JSON.stringify(write.input).includes('RATELIMIT#'))
    .reduce((sum, write) => sum + write.units, 0);

interface Figures {
  name: string;
  calls: number;
  chain: number;
  writeUnits: number;
  readUnits: number;
  typical: string;
}

const figures = (name: string, runs: DynamoDbCall[][], units: number[]): Figures => ({
  name,
  calls: mean(runs.map((calls) => calls.length)),
  chain: median(runs.map((calls) => sequentialRoundTrips(calls))),
  writeUnits: mean(units),
  readUnits: mean(runs.map((calls) => calls.reduce((sum, call) => sum + call.readUnits, 0))),
  typical: runs[0]!.map((call) => call.command).join(' → '),
});

async function main() {
  const dynamo = await startDynamoDbLocal({ inMemory: true, dataDir: '' });
  await ensureTable(dynamo.endpoint, TABLE_NAME);
  const proxy = await startCapacityProxy(dynamo.endpoint);
  process.env.DYNAMODB_ENDPOINT = proxy.endpoint;
  process.env.TABLE_NAME = TABLE_NAME;
  const served = await startCountedServer();
  const { base, recorder } = served;
  try {
    const names = ['sender', 'reader', ...Array.from({ length: COUNTED }, (_, i) => `stranger${i}`)];
    const user = await seedUser(base, names);
    const [sender, reader, ...strangers] = user.profiles as [string, string, ...string[]];
    const key = await seedKey(base, user, ['all:all'], user.profiles);
    await api(base, 'POST', '/v1/profile-follows', { followed_profile_id: sender }, key, reader);
    const body = 'A message of a typical length: a sentence or two, about 120 characters, as most direct messages are.';

    /** Runs `request` COUNTED times (after one warm-up), recording the calls of each run. */
    const measure = async (name: string, request: (i: number) => Promise<unknown>) => {
      await request(-1);
      const runs: DynamoDbCall[][] = [];
      const units: number[] = [];
      for (let i = 0; i < COUNTED; i++) {
        recorder.reset();
        proxy.reset();
        await request(i);
        runs.push(counted([...recorder.calls]));
        units.push(countedUnits(proxy));
      }
      return figures(name, runs, units);
    };
    const send = (from: string, to: string) => () =>
      api(base, 'POST', '/v1/messages', { recipient_profile_id: to, body }, key, from);

    // The middlewares' share of every acting request (credential, acting profile, safety sets), and one GetItem.
    const baseline = await measure('GET /v1/messages/settings (the middlewares, then one GetItem)', () =>
      api(base, 'GET', '/v1/messages/settings', undefined, key, reader),
    );
    const middlewares = baseline.chain - 1;
    const inbox = await measure('POST /v1/messages (inbox)', send(sender, reader));
    const request = await measure('POST /v1/messages (a first message: requests)', (i) =>
      send(strangers[i + 1] ?? strangers[0]!, reader)(),
    );

    // The send before conversations, on the same client: the recipient's profile, then one transaction.
    const { getProfile } = await import('../../shared/store/profiles.js');
    const { transact } = await import('../../shared/store/transact.js');
    const { putTransactItem } = await import('../../shared/store/items.js');
    const { entities } = await import('../../shared/store/entities.js');
    const { outboxItem } = await import('../../shared/store/outbox.js');
    const { socialEvents } = await import('../../shared/http/present/social-events.js');
    const senderProfile = (await getProfile(sender))!;
    const before = await measure('the send before conversations (replayed)', async () => {
      const recipient = (await getProfile(reader))!;
      const message = newMessage(new Date(), sender, reader, body, { automated: false, via: { kind: 'api_key' } });
      await transact([
        putTransactItem(entities.message, message),
        ...socialEvents.messageCreated(message, senderProfile, recipient).map(outboxItem),
      ]);
    });

    const { conversationId } = await import('../../shared/domain/social.js');
    const pairId = conversationId(sender, reader);
    const read = await measure('POST /v1/conversations/{id}/read', async () => {
      await send(sender, reader)();
      recorder.reset();
      proxy.reset();
      await api(base, 'POST', `/v1/conversations/${pairId}/read`, {}, key, reader);
    });
    for (const stranger of strangers.slice(0, 20)) await send(reader, stranger)();
    const list = await measure('GET /v1/conversations (20)', () =>
      api(base, 'GET', '/v1/conversations?limit=20', undefined, key, reader),
    );
    const count = await measure('GET /v1/conversations/unread-count', () =>
      api(base, 'GET', '/v1/conversations/unread-count', undefined, key, reader),
    );

    printTable(
      'What messages as an inbox cost a request (rate-window UpdateItem left out)',
      ['request', 'calls', 'chain', 'write units', 'read units', 'calls in order'],
      [baseline, before, inbox, request, read, list, count].map((f) => [
        f.name,
        f.calls,
        f.chain,
        f.writeUnits,
        f.readUnits,
        f.typical,
      ]),
    );
    printTable(
      'Goals',
      ['goal', 'measured', 'verdict'],
      [
        [
          'a send waits for no more round trips than before, beyond the middlewares (≤ before)',
          `${inbox.chain - middlewares} (before ${before.chain})`,
          verdict(
            inbox.chain - middlewares <= before.chain,
            `${inbox.chain - middlewares}`,
            'the recipient’s reads already share one BatchGetItem',
          ),
        ],
        [
          'write units a send gains: the two conversation items (≤ 12: 2 items × (1 table + 2 index key change) × 2 transactional)',
          `${(inbox.writeUnits - before.writeUnits).toFixed(1)} (${before.writeUnits.toFixed(1)} → ${inbox.writeUnits.toFixed(1)})`,
          verdict(
            inbox.writeUnits - before.writeUnits <= 12,
            `${(inbox.writeUnits - before.writeUnits).toFixed(1)}`,
            'keep the items off the index (sort key by activity: a delete and a put, no index copies)',
          ),
        ],
        [
          'a read mark beyond the middlewares: one read, one transaction of two small items (≤ 2 round trips, ≤ 8 write units)',
          `${read.chain - middlewares} round trips, ${read.writeUnits.toFixed(1)} write units`,
          verdict(
            read.chain - middlewares <= 2 && read.writeUnits <= 8,
            `${read.chain - middlewares} / ${read.writeUnits}`,
            'no index change: the read mark moves no item on the list',
          ),
        ],
      ],
    );
  } finally {
    served.close();
    await proxy.close();
    await dynamo.stop();
  }
}

await main();
