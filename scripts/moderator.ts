/**
 * `npm run moderator -- grant|revoke <email>`: gives or takes the platform role `moderator`. It
 * holds from the user's next request, existing sessions included. Writes the table it is pointed at:
 * - `DYNAMODB_ENDPOINT` set: that DynamoDB (Local), table `TABLE_NAME` (default `social-network`);
 * - else `TABLE_NAME` set: the table of that name in AWS (the stack's `TableName` output), with the
 *   usual AWS credentials and `AWS_REGION`;
 * - else the local runtime's data: the DynamoDB Local a running `npm start` announced under
 *   `DATA_DIR` (default `.data`), or, when none runs, one started here on that data for the write.
 */
import { config } from '../shared/config.js';
import type { PlatformRole } from '../shared/domain/reports.js';
import { setPlatformRole } from '../shared/store/platform-roles.js';
import { ensureTable, startDynamoDbLocal, type RunningDynamoDb } from '../infra/local/dynamodb-local.js';
import { runningLocalEndpoint } from '../infra/local/endpoint-file.js';

const USAGE = 'Usage: npm run moderator -- grant|revoke <email>';

async function main(): Promise<number> {
  const [command, email] = process.argv.slice(2);
  if ((command !== 'grant' && command !== 'revoke') || !email) {
    console.error(USAGE);
    return 2;
  }
  const role: PlatformRole | null = command === 'grant' ? 'moderator' : null;
  let started: RunningDynamoDb | undefined;
  if (!config.dynamodbEndpoint && process.env.TABLE_NAME === undefined) {
    const running = await runningLocalEndpoint(config.dataDir);
    if (!running) {
      started = await startDynamoDbLocal({ inMemory: false, dataDir: config.dataDir });
      await ensureTable(started.endpoint, config.tableName);
    }
    process.env.DYNAMODB_ENDPOINT = running ?? started!.endpoint;
  }
  try {
    const user = await setPlatformRole(email, role);
    if (!user) {
      console.error(`No user has the email ${email} in table ${config.tableName}.`);
      return 1;
    }
    console.log(
      role
        ? `${user.email} is a moderator from their next request.`
        : `${user.email} is no longer a moderator from their next request.`,
    );
    return 0;
  } finally {
    await started?.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(error.message);
    process.exit(1);
  },
);
