/**
 * `npm start`: the whole API on this machine. Starts DynamoDB Local (unless DYNAMODB_ENDPOINT is
 * set), creates the table if missing, serves every route of the route table, and stops cleanly
 * on Ctrl-C. `--in-memory` keeps no data between runs (neither the table nor the media files). `--bundles <dir>` serves the HTTP routes
 * from the esbuild bundles that `cdk deploy` uploads (built by `npm run bundles -- <dir>`) instead
 * of the TypeScript sources.
 */
import type { AddressInfo } from 'node:net';
import { config } from '../../shared/config.js';
import {
  ensureTable,
  JAVA_MISSING,
  javaAvailable,
  startDynamoDbLocal,
  type RunningDynamoDb,
} from './dynamodb-local.js';
import { deliveryRuntime } from './delivery-runtime.js';
import { erasureRuntime } from './erasure-runtime.js';
import { announceLocalEndpoint } from './endpoint-file.js';
import { exportRuntime } from './export-runtime.js';
import { feedRuntime } from './feed-runtime.js';
import { createHttpServer } from './http-server.js';
import { LocalCardSigner } from './local-card-signer.js';
import { mailRuntime } from './mail-runtime.js';
import { mediaRuntime } from './media-runtime.js';
import { searchRuntime } from './search-runtime.js';
import { LocalEventWake } from './local-event-wake.js';
import { logEventsHandler } from '../../functions/live-pipeline/log-events.js';

function readArguments(args: string[]): { inMemory: boolean; bundlesDir?: string } {
  const options: { inMemory: boolean; bundlesDir?: string } = { inMemory: false };
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--in-memory') options.inMemory = true;
    else if (args[i] === '--bundles' && args[i + 1]) options.bundlesDir = args[++i];
    else throw new Error(`Unknown argument ${args[i]}: the options are --in-memory and --bundles <dir>.`);
  }
  return options;
}

async function main(): Promise<void> {
  const { inMemory, bundlesDir } = readArguments(process.argv.slice(2));
  let dynamo: RunningDynamoDb | undefined;

  if (!config.dynamodbEndpoint) {
    if (!javaAvailable()) {
      console.error(JAVA_MISSING);
      process.exit(1);
    }
    dynamo = await startDynamoDbLocal({ inMemory, dataDir: config.dataDir });
    process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  }
  // Operator commands (npm run moderator) find the DynamoDB Local this server started through it.
  const withdraw = dynamo ? announceLocalEndpoint(config.dataDir, dynamo.endpoint) : () => undefined;
  await ensureTable(config.dynamodbEndpoint!, config.tableName);

  // Media: local storage (files under DATA_DIR, or memory), the upload route, the processor, the reaper.
  const media = mediaRuntime({ inMemory, dataDir: config.dataDir });
  // Webhook delivery machinery (stream poller → fan-out, in-process queue → sender, scheduler, sweeper);
  // its queue is also the one the HTTP functions that enqueue use. Its poller feeds the media clean-up
  // and the home feed too.
  // Search: the embedded index (DATA_DIR/search.sqlite, or memory), fed by the same poller.
  const search = searchRuntime({ inMemory, dataDir: config.dataDir });
  // Mail: the local mailbox (DATA_DIR/mail, or a temporary directory), fed by the same poller.
  const mail = mailRuntime({ inMemory, dataDir: config.dataDir });
  // Live: the event-log writer wakes, in process, the polls and streams waiting on the profile.
  const wake = new LocalEventWake();
  // Exports: archives under DATA_DIR/exports (or a temporary directory), written by the in-process queue's job.
  const exports = exportRuntime({ inMemory, dataDir: config.dataDir });
  const deliveries = deliveryRuntime(config.dynamodbEndpoint!, {
    'live-events': logEventsHandler((event) => wake.wake(event.profile_id)),
    'media-clean-up': media.onStream,
    'home-feed': feedRuntime().onStream,
    'search-index': search.onStream,
    mail: mail.onStream,
  });
  // Erasure: its in-process queue (and schedules), for the deletion routes and its own steps.
  const erasure = erasureRuntime({ storage: media.storage, search: search.index });
  const server = await createHttpServer({
    bundlesDir,
    ports: {
      ...deliveries.httpPorts,
      ...exports.httpPorts,
      storage: media.storage,
      search: search.index,
      wake,
      // Agent cards: signed with a key file under DATA_DIR (with --in-memory, a key kept in memory).
      cardSigner: new LocalCardSigner(inMemory ? undefined : config.dataDir),
      erasure: erasure.queue,
      erasureScheduler: erasure.queue,
    },
    media,
    mail,
    exports,
  });
  await search.start();
  await deliveries.start();
  await erasure.start();
  await new Promise<void>((resolve) => server.listen(config.port, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  // With PORT=0 (the tests) the system picked the port: the passkey origin's default names the real one.
  process.env.PORT = String(port);
  await media.start(`http://127.0.0.1:${port}`);
  await exports.start(`http://127.0.0.1:${port}`);

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    server.close();
    server.closeAllConnections();
    await erasure.stop();
    await media.stop();
    await deliveries.stop();
    await mail.stop();
    await exports.stop();
    search.stop();
    await dynamo?.stop();
    withdraw();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());

  const source = bundlesDir ? ` (HTTP routes from the bundles in ${bundlesDir})` : '';
  const base = `http://127.0.0.1:${port}`;
  console.log(`Social network API listening on ${base}${source}`);
  // localhost, not 127.0.0.1: browsers offer passkeys only to the relying party ID (WEBAUTHN_RP_ID, localhost).
  console.log(`  Console (sign up, log in): http://localhost:${port}/console`);
  console.log(`  API reference:             ${base}/docs`);
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
