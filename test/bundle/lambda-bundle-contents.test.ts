/**
 * What the Lambda bundles leave out, checked on esbuild's metafile of every function built as the
 * CDK stack builds it (infra/bundling.ts). Sizes and import times are the benchmark's
 * (test/bench/bundles.bench.ts); these are the trims that must not come back unnoticed.
 */
import { build, type Metafile } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { LAMBDA_BUNDLING, loadedAtStart, MCP_BUNDLING } from '../../infra/bundling.js';
import { httpHandlerModules, OTHER_LAMBDA_ENTRIES } from '../../infra/local/handler-bundles.js';

let meta: Metafile;
const entries = [...httpHandlerModules().map((handler) => `functions/${handler}.ts`), ...OTHER_LAMBDA_ENTRIES];

/** The input files of one function's bundle, as paths inside node_modules where they are a package's. */
function inputsOf(entry: string): string[] {
  const output = Object.values(meta.outputs).find((o) => o.entryPoint === entry);
  expect(output, entry).toBeDefined();
  return Object.keys(output!.inputs).map((path) => path.replace(/^.*node_modules\//, ''));
}

beforeAll(async () => {
  const result = await build({
    ...LAMBDA_BUNDLING,
    entryPoints: entries,
    outdir: 'out',
    write: false,
    sourcemap: false,
    metafile: true,
    logLevel: 'silent',
  });
  meta = result.metafile;
}, 120_000);

describe('the Lambda bundles', () => {
  it('carry none of the SDK credential providers but the environment (no SSO, INI files, process, web identity, IMDS or container)', () => {
    const chain =
      /^@aws-sdk\/(credential-provider-(node|sso|ini|process|web-identity|http|login)|nested-clients|token-providers)\/|^@smithy\/credential-provider-imds\//;
    let sdk = 0;
    for (const entry of entries) {
      const inputs = inputsOf(entry);
      if (inputs.some((path) => path.startsWith('@aws-sdk/client-'))) sdk++;
      expect(
        inputs.filter((path) => chain.test(path)),
        entry,
      ).toEqual([]);
    }
    expect(sdk).toBeGreaterThan(40); // the check saw the SDK clients it is about
  });

  it('carry no event-stream codecs (no operation used here has an event-stream member)', () => {
    for (const entry of entries)
      expect(
        inputsOf(entry).filter((path) => path.includes('/event-streams/')),
        entry,
      ).toEqual([]);
  });

  it('give the HTTP functions that enqueue deliveries or an export job the SQS client, the account deletion the Scheduler client too, and the others neither', () => {
    // Deleting the account schedules the erasure after the grace period, or queues it now.
    const scheduling = ['functions/identity/delete-me.ts'];
    const enqueuing = [
      'functions/webhooks/retry-webhook-delivery.ts',
      'functions/webhooks/recover-webhook-deliveries.ts',
      // It queues the export's job.
      'functions/exports/create-export.ts',
      // It queues the profile's erasure.
      'functions/profiles/delete-profile.ts',
    ];
    for (const handler of httpHandlerModules()) {
      const entry = `functions/${handler}.ts`;
      const queueClients = new Set(
        inputsOf(entry).flatMap((path) => /^@aws-sdk\/(client-sqs|client-scheduler)\//.exec(path)?.[1] ?? []),
      );
      const expected = scheduling.includes(entry)
        ? ['client-scheduler', 'client-sqs']
        : enqueuing.includes(entry)
          ? ['client-sqs']
          : [];
      expect([...queueClients].sort(), entry).toEqual(expected);
    }
  });

  it('give sharp to the media processor only, and the S3 client only to the functions that reach a bucket', () => {
    const packagesOf = (entry: string) =>
      new Set(inputsOf(entry).flatMap((path) => /^(sharp|@aws-sdk\/client-s3)\//.exec(path)?.[1] ?? []));
    const expected: Record<string, string[]> = {
      'functions/media/create-media.ts': ['@aws-sdk/client-s3'],
      'functions/media-pipeline/process-upload.ts': ['@aws-sdk/client-s3', 'sharp'],
      'functions/media-pipeline/clean-up-media.ts': ['@aws-sdk/client-s3'],
      // They sign the archive's download; the job writes it.
      'functions/exports/get-export.ts': ['@aws-sdk/client-s3'],
      'functions/exports/list-exports.ts': ['@aws-sdk/client-s3'],
      'functions/export-pipeline/build-export.ts': ['@aws-sdk/client-s3'],
      // Erasure deletes the profile's media files.
      'functions/erasure/erase-step.ts': ['@aws-sdk/client-s3'],
    };
    for (const entry of entries) expect([...packagesOf(entry)].sort(), entry).toEqual(expected[entry] ?? []);
  });

  it('give the KMS client and jose to the agent card and JWKS functions only (jose as its JWK export and thumbprint)', () => {
    const packagesOf = (entry: string) =>
      new Set(inputsOf(entry).flatMap((path) => /^(@aws-sdk\/client-kms|jose)\//.exec(path)?.[1] ?? []));
    const signing = ['functions/agent-cards/get-agent-card.ts', 'functions/agent-cards/get-jwks.ts'];
    for (const entry of entries)
      expect([...packagesOf(entry)].sort(), entry).toEqual(
        signing.includes(entry) ? ['@aws-sdk/client-kms', 'jose'] : [],
      );
    // jose's JWS, JWT and remote-JWKS code stays out: the service builds its own JWS.
    const jose = inputsOf(signing[0]!).filter((path) => path.startsWith('jose/'));
    expect(jose.filter((path) => /\/(jws|jwt|jwks|jwe)\//.test(path))).toEqual([]);
  });

  it('give the WebAuthn library, and its X.509 and ASN.1 stack, to adding a passkey only (not to the passkey sign-in)', () => {
    const packagesOf = (entry: string) =>
      new Set(
        inputsOf(entry).flatMap((path) => /^(@simplewebauthn\/server|@peculiar\/x509|asn1js)\//.exec(path)?.[1] ?? []),
      );
    for (const entry of entries)
      expect([...packagesOf(entry)].sort(), entry).toEqual(
        entry === 'functions/passkeys/add-passkey.ts' ? ['@peculiar/x509', '@simplewebauthn/server', 'asn1js'] : [],
      );
  });

  it("give the webhook sender undici's HTTP client, not its fetch, WebSocket, cache, mock agents or index", () => {
    const undici = inputsOf('functions/webhook-pipeline/send-delivery.ts').filter((path) => path.startsWith('undici/'));
    expect(undici).toContain('undici/lib/dispatcher/client.js');
    expect(undici).toContain('undici/lib/api/api-request.js');
    const unwanted =
      /^undici\/(index\.js|index-fetch\.js|lib\/web\/(fetch\/index|websocket|eventsource|cache|cookies)|lib\/mock\/|lib\/cache\/|lib\/interceptor\/|lib\/dispatcher\/(agent|proxy-agent|retry-agent|env-http-proxy-agent)\.js)/;
    expect(undici.filter((path) => unwanted.test(path))).toEqual([]);
  });

  it("leave out undici's second HTTP parser and fetch body encoder, and nothing of any other package", () => {
    const sender = 'functions/webhook-pipeline/send-delivery.ts';
    expect(inputsOf(sender)).toContain('undici/lib/llhttp/llhttp_simd-wasm.js');
    expect(
      inputsOf(sender).filter(
        (path) => path === 'undici/lib/llhttp/llhttp-wasm.js' || path.startsWith('undici/lib/web/'),
      ),
    ).toEqual([]);
    // The two paths are left out by their names as written: no other package's require may match
    // them. undici is in the functions that reach outbound URLs: the sender, and the OAuth ones
    // that fetch client metadata documents.
    const outbound = [
      sender,
      'functions/oauth/authorize.ts',
      'functions/oauth/get-authorization-request.ts',
      'functions/oauth/decide-authorization-request.ts',
    ];
    const leftOut = new Set<string>(LAMBDA_BUNDLING.external);
    for (const entry of entries) {
      const output = Object.values(meta.outputs).find((o) => o.entryPoint === entry)!;
      const matched = new Set(output.imports.filter((imported) => leftOut.has(imported.path)).map((i) => i.path));
      expect([...matched].sort(), entry).toEqual(outbound.includes(entry) ? [...leftOut].sort() : []);
    }
  });

  it('split the MCP function: the MCP SDK without its ajv validator in its cold start, each tool route in a chunk of its own, all under 1 MiB', async () => {
    // As the stack builds it (splitApiFunction): the entry, the chunks it imports, the tools' chunks.
    const { metafile } = await build({
      ...MCP_BUNDLING,
      entryPoints: { index: 'functions/mcp/handler.ts' },
      outdir: 'out-mcp',
      write: false,
      sourcemap: false,
      metafile: true,
      logLevel: 'silent',
    });
    const outputs = metafile.outputs;
    const entry = Object.keys(outputs).find((file) => outputs[file]!.entryPoint === 'functions/mcp/handler.ts')!;
    const cold = loadedAtStart(outputs, entry);
    const coldInputs = [...cold].flatMap((file) =>
      Object.keys(outputs[file]!.inputs).map((path) => path.replace(/^.*node_modules\//, '')),
    );
    const allInputs = Object.values(outputs).flatMap((output) =>
      Object.keys(output.inputs).map((path) => path.replace(/^.*node_modules\//, '')),
    );
    expect(coldInputs.some((path) => path.startsWith('@modelcontextprotocol/server/'))).toBe(true);
    expect(coldInputs).not.toContain('functions/posts/create-post.ts');
    expect(allInputs).toContain('functions/posts/create-post.ts');
    expect(
      allInputs.filter((path) => /^ajv|ajvProvider|^@modelcontextprotocol\/server\/dist\/shimsNode/.test(path)),
    ).toEqual([]);
    expect(Object.values(outputs).reduce((sum, output) => sum + output.bytes, 0)).toBeLessThan(1024 * 1024);
  });
});
