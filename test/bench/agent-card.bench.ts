/**
 * `npm run bench:agent-card`: what reading an agent card costs, COUNTED, on a throw-away stack.
 * The routes are served in this process with a counting card signer (the local key, every `sign`
 * counted as KMS would bill one Sign) and the store's client recorded (dynamodb-calls.ts). Goal
 * (issue 35): signing cached until the card changes, so 1,000 reads of an unchanged card sign at
 * most once, and a card that changes every 100 reads signs once per change.
 */
import { LocalCardSigner } from '../../infra/local/local-card-signer.js';
import type { LocalHttpPorts } from '../../infra/local/http-server.js';
import type { CardSigner } from '../../shared/ports/card-signer.js';
import { sequentialRoundTrips, type DynamoDbCall } from '../support/dynamodb-calls.js';
import { api, percentile, printTable, seedKey, seedUser, startCountedServer, startStack, verdict } from './support.js';

const READS = Number(process.env.BENCH_READS ?? 1000);
/** In the changing run, the card changes (new skills) before every this many reads. */
const CHANGE_EVERY = 100;

/** The local signer, its signatures counted. */
function countingSigner(): CardSigner & { signed: number } {
  const inner = new LocalCardSigner(undefined);
  const counting = {
    signed: 0,
    keyId: () => inner.keyId(),
    publicJwk: () => inner.publicJwk(),
    sign: (data: Uint8Array) => {
      counting.signed++;
      return inner.sign(data);
    },
  };
  return counting;
}

/** Ports no read of this bench uses: any use fails it loudly. */
const unused = (name: string) =>
  new Proxy(
    {},
    {
      get: () => {
        throw new Error(`the agent card bench does not use the ${name} port`);
      },
    },
  ) as never;

interface Run {
  name: string;
  signed: number;
  versions: number;
  latencies: number[];
  calls: DynamoDbCall[][];
}

async function main() {
  const stack = await startStack();
  try {
    const signer = countingSigner();
    const ports: LocalHttpPorts = {
      cardSigner: signer,
      queue: unused('queue'),
      storage: unused('storage'),
      search: unused('search'),
      exportQueue: unused('exportQueue'),
      exportStorage: unused('exportStorage'),
      wake: unused('wake'),
      erasure: unused('erasure'),
      erasureScheduler: unused('erasureScheduler'),
    };
    const served = await startCountedServer({ ports });
    const { base, recorder } = served;
    try {
      const agents = await seedUser(base, ['benchbot', 'changingbot'], 'agent');
      const human = await seedUser(base, ['operator']);
      const agentKey = await seedKey(base, agents, ['all:all'], agents.profiles);
      const humanKey = await seedKey(base, human, ['all:all'], human.profiles);
      // An accepted operator, as an agent that answers for itself has: its profile is one more read.
      for (const agentId of agents.profiles) {
        const { link } = await api(
          base,
          'POST',
          `/v1/profiles/${agentId}/operator`,
          { operator_profile_id: human.profiles[0] },
          agentKey,
          agentId,
        );
        await api(base, 'POST', `/v1/operator-links/${link.id}/accept`, undefined, humanKey, human.profiles[0]);
      }

      const read = async (agentId: string, run: Run) => {
        recorder.reset();
        const started = performance.now();
        const response = await fetch(`${base}/v1/profiles/${agentId}/agent-card`);
        if (response.status !== 200) throw new Error(`card read: ${response.status} ${await response.text()}`);
        const card = (await response.json()) as { version: string };
        run.latencies.push(performance.now() - started);
        run.calls.push([...recorder.calls]);
        return card.version;
      };

      const runs: Run[] = [];
      for (const [name, agentId, changing] of [
        ['unchanged card', agents.profiles[0]!, false],
        [`changed every ${CHANGE_EVERY} reads`, agents.profiles[1]!, true],
      ] as const) {
        const run: Run = { name, signed: 0, versions: 0, latencies: [], calls: [] };
        const versions = new Set<string>();
        const before = signer.signed;
        for (let i = 0; i < READS; i++) {
          if (changing && i % CHANGE_EVERY === 0) {
            const skills = [{ id: `skill-${i}`, name: `Skill ${i}`, description: 'changes the card', tags: [] }];
            await api(base, 'PATCH', `/v1/profiles/${agentId}`, { agent: { skills } }, agentKey, agentId);
          }
          versions.add(await read(agentId, run));
        }
        run.signed = signer.signed - before;
        run.versions = versions.size;
        runs.push(run);
      }

      const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
      const rows = runs.map((run) => {
        const sorted = [...run.latencies].sort((a, b) => a - b);
        const chains = run.calls.map((calls) => sequentialRoundTrips(calls)).sort((a, b) => a - b);
        const perThousand = (run.signed * 1000) / READS;
        const goal = (run.versions * 1000) / READS;
        const typical = run.calls.at(-1)!.map((call) => call.command);
        return [
          run.name,
          READS,
          run.versions,
          run.signed,
          perThousand,
          `≤ ${goal} (one per version)`,
          typical.join(' + '),
          chains[Math.floor(chains.length / 2)]!,
          mean(run.calls.map((calls) => calls.reduce((sum, call) => sum + call.readUnits, 0))),
          mean(run.calls.map((calls) => calls.reduce((sum, call) => sum + call.writeUnits, 0))),
          percentile(sorted, 50),
          percentile(sorted, 99),
          verdict(
            perThousand <= goal,
            `${perThousand} signatures per 1,000 reads`,
            'keep the signature by version (it is)',
          ),
        ];
      });
      printTable(
        `Agent card reads (GET /v1/profiles/{id}/agent-card, anonymous, accepted operator), ${READS} reads each, served in this process: signing calls (what KMS would bill), DynamoDB calls of a typical (cached) read, its longest chain of calls one after another (median), mean read and write units as DynamoDB Local reports them, latency in ms (with the local key: in AWS a read that signs also waits for one KMS Sign, not measured here)`,
        [
          'run',
          'reads',
          'versions',
          'signed',
          'per 1,000 reads',
          'goal',
          'calls',
          'sequential',
          'RRU',
          'WRU',
          'p50 ms',
          'p99 ms',
          '',
        ],
        rows,
      );
    } finally {
      served.close();
    }
  } finally {
    await stack.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
