import { AssetHashType, Duration } from 'aws-cdk-lib';
import type { IRole } from 'aws-cdk-lib/aws-iam';
import {
  Architecture,
  Code,
  Function as LambdaFunction,
  type FunctionOptions,
  LoggingFormat,
  Runtime,
  Tracing,
} from 'aws-cdk-lib/aws-lambda';
import { LogLevel, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { type ILogGroup, LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { buildSync } from 'esbuild';
import { LAMBDA_BUNDLING, MCP_BUNDLING } from './bundling.js';
import { projectPath } from './project-root.js';

/** The service name in every structured log line (matches shared/logger.ts). */
export const SERVICE_NAME = 'social-network-api';

export interface FunctionOverrides {
  /** Defaults to 10 s, enough for an API request; the webhook sender needs its 15 s attempt plus margin. */
  timeout?: Duration;
  memorySize?: number;
  description?: string;
  /**
   * A role shared by the functions of one access class (see infra/function-roles.ts). Without
   * it the function gets a role of its own, as CDK builds it.
   */
  role?: IRole;
  /** A log group shared with other functions; Lambda names each stream after the function. */
  logGroup?: ILogGroup;
  /** Reserved (and so also maximum) concurrency; unset: the account's unreserved pool. */
  reservedConcurrentExecutions?: number;
  /**
   * Packages with native binaries (sharp): left out of the bundle and installed into the asset by
   * npm, for Lambda's platform (LAMBDA_NPM_PLATFORM) instead of the build machine's.
   */
  nativeModules?: readonly string[];
}

/** Every function runs on Graviton: cheaper per ms and at least as fast for this I/O-bound JSON work. */
export const LAMBDA_ARCHITECTURE = Architecture.ARM_64;

/**
 * The platform npm installs native packages for (`npm_config_*` in the bundling environment):
 * Lambda's, arm64 Linux with glibc. npm otherwise picks the build machine's, and sharp's binaries
 * are per-platform packages (`@img/sharp-linux-arm64`), so an x64 build machine would put an x64
 * binary into the arm64 function without any error until the first invocation.
 */
export const LAMBDA_NPM_PLATFORM = {
  npm_config_os: 'linux',
  npm_config_cpu: 'arm64',
  npm_config_libc: 'glibc',
} as const;

/** How long function logs are kept: long enough to look back over a month, bounded in cost. */
export const LOG_RETENTION = RetentionDays.ONE_MONTH;

/**
 * Node.js 24 LTS, the runtime the tests run on (`npm ci` brings it as the devDependency `node`
 * where the machine is older; test/unit/runtime.test.ts holds the two together): nodejs22.x leaves
 * support with Node 22 on 2027-04-30, and AWS SDK releases from January 2027 need Node >= 22. The
 * one place the runtime is chosen; cdk-nag finds it the latest.
 */
export const LAMBDA_RUNTIME = Runtime.NODEJS_24_X;

/** What every function of the service shares, however its code is bundled. */
function functionOptions(
  scope: Construct,
  id: string,
  environment: Record<string, string>,
  overrides: FunctionOverrides,
): FunctionOptions & { runtime: Runtime } {
  // An explicit log group instead of the deprecated `logRetention` custom resource: retention
  // bounds the cost of logs, and the group is created before the first invocation.
  const logGroup = overrides.logGroup ?? new LogGroup(scope, `${id}-Logs`, { retention: LOG_RETENTION });
  return {
    runtime: LAMBDA_RUNTIME,
    architecture: LAMBDA_ARCHITECTURE,
    // 512 MB: Lambda CPU scales with memory; module init at cold start and scrypt password
    // hashing (sign-up, log-in) are CPU-bound, and at 128-256 MB they take several times longer.
    memorySize: overrides.memorySize ?? 512,
    timeout: overrides.timeout ?? Duration.seconds(10),
    description: overrides.description,
    role: overrides.role,
    reservedConcurrentExecutions: overrides.reservedConcurrentExecutions,
    // X-Ray at the Lambda level (invocation, init/cold start, duration) for sampled requests; why
    // not Powertools Tracer as well: docs/operations.md, "Tracing and metrics".
    tracing: Tracing.ACTIVE,
    loggingFormat: LoggingFormat.JSON,
    logGroup,
    environment: {
      NODE_OPTIONS: '--enable-source-maps',
      POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
      ...environment,
    },
  };
}

/**
 * One Lambda with the service's shared defaults: the HTTP routes use it, and so must every other
 * function of the stack (webhook fan-out, sender, sweeper), so that runtime, bundling and logging
 * are decided in this one place.
 *
 * @param entry handler file relative to the repository root, e.g. `functions/posts/get-post.ts`;
 *              the module must export `handler`.
 * @param environment merged over the shared variables (TABLE_NAME and friends come from the caller).
 */
export function apiFunction(
  scope: Construct,
  id: string,
  entry: string,
  environment: Record<string, string>,
  overrides: FunctionOverrides = {},
): NodejsFunction {
  return new NodejsFunction(scope, id, {
    entry: projectPath(entry),
    handler: 'handler',
    projectRoot: projectPath(),
    depsLockFilePath: projectPath('package-lock.json'),
    ...functionOptions(scope, id, environment, overrides),
    // esbuild settings live in infra/bundling.ts, shared with the bundle-size benchmark, so what
    // is measured is what is deployed.
    bundling: {
      minify: LAMBDA_BUNDLING.minify,
      sourceMap: LAMBDA_BUNDLING.sourcemap,
      sourcesContent: LAMBDA_BUNDLING.sourcesContent,
      format: LAMBDA_BUNDLING.format === 'esm' ? OutputFormat.ESM : OutputFormat.CJS,
      mainFields: [...LAMBDA_BUNDLING.mainFields],
      banner: LAMBDA_BUNDLING.banner.js,
      target: LAMBDA_BUNDLING.target,
      // Size summaries of every bundle drown `cdk synth -q`; warnings and errors still show.
      logLevel: LogLevel.WARNING,
      // Decision: bundle the AWS SDK v3 instead of using the copy the nodejs24.x runtime provides.
      // - The deployed code then runs exactly the SDK versions that package-lock.json pins and
      //   that the tests ran against; the runtime's copy changes whenever AWS updates it.
      // - One minified file loads faster at cold start than resolving the SDK's many files.
      //   Measured on a dev machine (Node 20, fresh process, import of the handler module):
      //   profiles/get-profile 844 KB bundled, ~86 ms to import; 504 KB with @aws-sdk/* and
      //   @smithy/* external, ~120 ms (identity/create-user: 848 KB / ~86 ms vs 506 KB / ~120 ms).
      //   Again after trimming zod and the credential chain (2026-11-22, posts/get-post, same run on a
      //   loaded machine): 347 KiB bundled 294 ms vs 147 KiB with the SDK external 628 ms.
      // The cost, ~340 KB more per zip, is far below Lambda's limits and has no runtime effect.
      bundleAwsSDK: true,
      externalModules: [...LAMBDA_BUNDLING.external],
      esbuildArgs: Object.fromEntries(
        Object.entries(LAMBDA_BUNDLING.alias).map(([name, path]) => [`--alias:${name}`, path]),
      ),
      ...(overrides.nativeModules && {
        nodeModules: [...overrides.nativeModules],
        environment: { ...LAMBDA_NPM_PLATFORM },
      }),
    },
  });
}

/**
 * A function like apiFunction's whose bundle is split at its dynamic imports (MCP_BUNDLING):
 * NodejsFunction writes one `--outfile`, which esbuild's code splitting cannot use, so the asset
 * is built here with the same esbuild settings into `index.mjs` and its `chunks/`. Only esbuild
 * on this machine (the devDependency), as NodejsFunction's local bundling; never Docker.
 */
export function splitApiFunction(
  scope: Construct,
  id: string,
  entry: string,
  environment: Record<string, string>,
  overrides: Omit<FunctionOverrides, 'nativeModules'> = {},
): LambdaFunction {
  return new LambdaFunction(scope, id, {
    ...functionOptions(scope, id, environment, overrides),
    handler: 'index.handler',
    code: Code.fromAsset(projectPath(), {
      assetHashType: AssetHashType.OUTPUT,
      bundling: {
        image: LAMBDA_RUNTIME.bundlingImage,
        local: {
          tryBundle(outputDir) {
            buildSync({
              ...MCP_BUNDLING,
              // The settings NodejsFunction passes beside LAMBDA_BUNDLING (see apiFunction).
              entryPoints: { index: projectPath(entry) },
              outdir: outputDir,
              logLevel: 'warning',
            });
            return true;
          },
        },
      },
    }),
  });
}
