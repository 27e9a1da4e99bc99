import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importsOf, offenders, sourceFiles } from '../support/import-graph.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

const under =
  (...prefixes: string[]) =>
  (target: string) =>
    prefixes.some((p) => target.startsWith(p));

describe('the floors of the house (each imports only the floors below it)', () => {
  it('finds imports at all (the check itself works)', () => {
    expect(importsOf('shared/http/handler.ts')).toContain('shared/http/middleware/authenticate.js');
    expect(offenders(['shared/http'], under('shared/http/'))).not.toEqual([]);
  });

  it('keeps HTTP out of the domain, the store, auth, the delivery engine, the feed and the ports', () => {
    expect(
      offenders(
        ['shared/domain', 'shared/store', 'shared/auth', 'shared/webhooks', 'shared/feed', 'shared/ports'],
        under('shared/http/'),
      ),
    ).toEqual([]);
  });

  it('keeps the domain free of AWS, the store and the ports', () => {
    expect(
      offenders(['shared/domain'], under('@aws-sdk/', 'shared/store/', 'shared/ports/', 'shared/webhooks/')),
    ).toEqual([]);
  });

  it('keeps the ports below the delivery engine (no cycle between them)', () => {
    expect(offenders(['shared/ports'], under('shared/webhooks/'))).toEqual([]);
  });

  it('imports the SQS and Scheduler SDKs only in their adapters under shared/ports/aws', () => {
    const sdk = under('@aws-sdk/client-sqs', '@aws-sdk/client-scheduler');
    expect(offenders(['shared', 'functions'], sdk).filter((o) => !o.startsWith('shared/ports/aws/'))).toEqual([]);
    expect(offenders(['shared/ports/aws'], sdk)).not.toEqual([]);
  });

  it("gives each handler only its own resource's routes (its bundle carries those schemas, not every route's)", () => {
    const own = (file: string) => `shared/http/contract/routes/${file.split('/')[1]}.js`;
    const foreign = sourceFiles('functions').flatMap((file) =>
      importsOf(file)
        .filter((target) => target.startsWith('shared/http/contract/route'))
        .filter((target) => target !== own(file))
        .map((target) => `${file} → ${target}`),
    );
    // The three that need the whole table: the document describes every route, the fallback
    // matches against them all, the audit recorder names every stamped write's operation.
    expect(foreign.sort()).toEqual([
      'functions/audit/record-audit.ts → shared/http/contract/route-table.js',
      'functions/system/get-openapi.ts → shared/http/contract/route-table.js',
      'functions/system/route-not-found.ts → shared/http/contract/route-table.js',
    ]);
  });

  it('lets nothing under shared/ reach up into the entry points or the infrastructure', () => {
    expect(offenders(['shared'], under('functions/', 'infra/'))).toEqual([]);
  });

  it('keeps the console free of the entry points and the infrastructure', () => {
    // The check sees the console's local imports (.tsx included).
    expect(offenders(['console'], under('console/'))).not.toEqual([]);
    expect(offenders(['console'], under('functions/', 'infra/'))).toEqual([]);
  });

  it('keeps the SDK on its own: its sources import each other and its two packages, nothing of the service', () => {
    const sdkPackages = ['openapi-fetch', 'standardwebhooks'];
    expect(offenders(['sdk/src'], (target) => sdkPackages.includes(target))).not.toEqual([]);
    const own = (target: string) => target.startsWith('sdk/src/') || sdkPackages.includes(target);
    expect(offenders(['sdk/src'], (target) => !own(target))).toEqual([]);
  });

  it('has the console use the SDK by its package name, as integrators do', () => {
    expect(offenders(['console'], under('@social-network/sdk'))).not.toEqual([]);
    expect(offenders(['console'], under('sdk/', 'openapi-fetch'))).toEqual([]);
  });
});

describe('one way to retry (shared/pipeline/retry.ts)', () => {
  /** The shapes of a hand-written retry: a try counter, a back-off formula, a sleep between tries, a re-send of what DynamoDB left unprocessed. */
  const retryLoop = [
    /for\s*\(\s*let\s+(attempt|round|tries|tryNumber)\b/,
    /\b(attempt|round|tries)\s*\+\+/,
    /\*\*\s*\(?\s*(attempt|round|tries)\b/,
    /setTimeout\([^;]*(\*\*|Math\.random)/,
    /setTimeout as sleep/,
    /while\s*\([^)]*(requests?|pending)\b[^)]*\)[^]*?Unprocessed(Items|Keys)/,
  ];
  const exempt: Record<string, string> = {};
  const holdsRetryLoop = (file: string) => {
    const text = readFileSync(join(root, file), 'utf8');
    return retryLoop.some((pattern) => pattern.test(text));
  };
  const files = ['shared', 'functions', 'infra'].flatMap((dir) => sourceFiles(dir));

  it('recognises a retry loop (the check itself works)', () => {
    expect(holdsRetryLoop('shared/pipeline/retry.ts')).toBe(true);
  });

  it('has no hand-written retry loop outside shared/pipeline/', () => {
    const loops = files.filter((file) => !file.startsWith('shared/pipeline/') && holdsRetryLoop(file));
    expect(loops.filter((file) => !(file in exempt))).toEqual([]);
  });

  it('lists only exemptions that still hold a loop (remove one once its file is moved onto retry())', () => {
    expect(Object.keys(exempt).filter((file) => !holdsRetryLoop(file))).toEqual([]);
  });
});

describe('the store names its indexes in one place', () => {
  /** An index's name (`gsi1`), its key attributes (`gsi1pk`), or a request naming one. */
  const namesAnIndex = /\bgsi\d|\bIndexName\b/;
  /** The table layout (table, keys, entity layouts with their access paths) and the query module. */
  const layout = [
    'shared/store/table.ts',
    'shared/store/keys.ts',
    'shared/store/entities.ts',
    'shared/store/paths.ts',
    'shared/store/create-table-input.ts',
  ];
  const naming = (dirs: string[]) =>
    dirs
      .flatMap(sourceFiles)
      .filter((file) => namesAnIndex.test(readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8')));

  it('finds index names at all (the check itself works)', () => {
    expect(naming(['shared/store'])).toEqual(expect.arrayContaining(['shared/store/table.ts']));
  });

  it('lets no file outside the table layout and the query module name an index: queries call paths by name', () => {
    const outside = naming(['shared', 'functions', 'infra']).filter((file) => !layout.includes(file));
    expect(outside).toEqual([]);
  });
});

describe('one definition of each fact (issue 36)', () => {
  const code = ['shared', 'functions', 'infra'].flatMap((dir) => sourceFiles(dir));
  const text = (file: string) => readFileSync(join(root, file), 'utf8');
  const holding = (pattern: RegExp, files = code) => files.filter((file) => pattern.test(text(file)));

  it('defines epochSeconds once (shared/store/epoch.ts), and rounds seconds for an expiry nowhere else', () => {
    expect(holding(/\b(const|function)\s+epochSeconds\b/)).toEqual(['shared/store/epoch.ts']);
    expect(holding(/Math\.ceil\([^;]*\/\s*1000\)/, sourceFiles('shared/store'))).toEqual(['shared/store/epoch.ts']);
  });

  it('defines isSuspended once (shared/domain/reports.ts)', () => {
    expect(holding(/\b(const|function)\s+isSuspended\b/)).toEqual(['shared/domain/reports.ts']);
  });

  it("keeps the stream folds' watermark format in shared/store/shard-watermarks.ts", () => {
    expect(holding(/padStart\(\s*(40|SEQUENCE_DIGITS)\b/)).toEqual(['shared/store/shard-watermarks.ts']);
    expect(holding(/watermarkPrefix\}\$\{/)).toEqual(['shared/store/shard-watermarks.ts']);
  });

  it("words a fold's missing-shardId guard once (shared/ports/shard-stream-event.ts)", () => {
    expect(holding(/without shardId/)).toEqual(['shared/ports/shard-stream-event.ts']);
  });

  it('sends an UpdateItem only through shared/store/update.ts', () => {
    expect(holding(/new UpdateCommand\(/)).toEqual(['shared/store/update.ts']);
  });

  it('reads and writes the table only in the store (and the local runtime, which stands in for AWS)', () => {
    const tableClients = under('@aws-sdk/lib-dynamodb', 'shared/store/client.js');
    expect(
      offenders(['shared', 'functions'], tableClients).filter(
        (o) => !o.startsWith('shared/store/') && !o.startsWith('shared/ports/aws/'),
      ),
    ).toEqual([]);
    expect(
      offenders(['shared', 'functions'], under('shared/store/batch.js')).filter((o) => /batchGet/.test(o)),
    ).toEqual([]);
  });

  it('builds every stream consumer with the one construct (infra/stream-consumer.ts)', () => {
    expect(holding(/new DynamoEventSource\(/)).toEqual(['infra/stream-consumer.ts']);
  });

  it('has one local queue emulator reading batchItemFailures (infra/local)', () => {
    const sqsEmulators = holding(/batchItemFailures/, sourceFiles('infra/local')).filter(
      (file) => file !== 'infra/local/stream-poller.ts',
    );
    expect(sqsEmulators).toHaveLength(1);
  });

  /** `Promise.all(x.map(…))` where x holds a query's items: a page (`for await`) or what a list/query call returned. */
  const queriedFanOuts = (source: string): string[] => {
    const queried = new Set([
      ...[...source.matchAll(/for await \(const (\w+) of/g)].map((m) => m[1]!),
      ...[...source.matchAll(/(?:const|let)\s+(\w+)\s*=\s*\(?\s*await\s+(?:list|query)\w*\(/g)].map((m) => m[1]!),
    ]);
    return [...source.matchAll(/Promise\.all\(\s*(\w+)\.(?:map|flatMap)\(/g)]
      .map((m) => m[1]!)
      .filter((name) => queried.has(name));
  };

  it("recognises a Promise.all over a query's items (the check itself works)", () => {
    expect(queriedFanOuts('for await (const page of pages) await Promise.all(page.map(f));')).toEqual(['page']);
    expect(queriedFanOuts('const due = await listDue(now);\nawait Promise.all(\n  due.map(f));')).toEqual(['due']);
    expect(queriedFanOuts('await Promise.all([a(), b()]);')).toEqual([]);
  });

  it("fans out over a query's items only through mapLimit (shared/pipeline/concurrency.ts)", () => {
    expect(
      code.filter((file) => !file.startsWith('shared/pipeline/') && queriedFanOuts(text(file)).length > 0),
    ).toEqual([]);
  });
});
