import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { isConsolePath, serveAsset } from '../../console/server/assets.js';
import { buildConsoleAssets } from '../../console/server/build-assets.js';
import { routeList, type RouteName } from '../../shared/http/contract/route-table.js';
import { handler as routeNotFound } from '../../functions/system/route-not-found.js';
import { errorResponse } from '../../shared/http/envelope.js';
import type { RouteDef } from '../../shared/http/contract/route.js';
import type { RouteLambda } from '../../shared/http/handler.js';
import { ApiError } from '../../shared/http/contract/errors.js';
import type { DeliveryPorts } from '../../shared/ports/delivery-ports.js';
import type { CardSigner } from '../../shared/ports/card-signer.js';
import type { DeletionPorts } from '../../shared/erasure/ports.js';
import type { MediaStorage } from '../../shared/ports/media-storage.js';
import type { ExportPorts } from '../../functions/exports/ports.js';
import type { SearchIndex } from '../../shared/ports/search-index.js';
import { routeMatcher } from '../../shared/http/route-match.js';
import { actableProfiles } from '../../shared/auth/actable-profiles.js';
import { MCP_PATH } from '../../shared/mcp/path.js';
import { mcpEndpoint } from '../../shared/mcp/endpoint.js';
import { assertBundlesPresent, importBundle, MCP_HANDLER, NOT_FOUND_HANDLER } from './handler-bundles.js';
import { localContext } from './lambda-context.js';
import { readCappedBody } from './read-capped-body.js';
import { requestTarget, type RequestTarget } from './request-target.js';

import type { HttpLambda } from '../../shared/http/handler.js';
import type { EventWake } from '../../shared/ports/event-wake.js';
import type { ResponseSink } from '../../shared/ports/response-sink.js';

/** A streaming route's function as the local server runs it: writing into the HTTP response as it goes. */
type StreamLambda = (event: APIGatewayProxyEventV2, sink: ResponseSink, context: Context) => Promise<void>;
type StreamingModule = { streamHandler: (wake?: EventWake) => StreamLambda };

/** API Gateway's own payload limit; the handlers' 256 KiB limit answers below it. */
const GATEWAY_MAX_BODY = 10 * 1024 * 1024;
const functionsDir = fileURLToPath(new URL('../../functions/', import.meta.url));

/**
 * The ports the local runtime gives the HTTP functions in place of the AWS adapters they build
 * in Lambda: the in-process deliveries queue (the manual retry and the recovery enqueue) and the
 * local media storage (the upload forms of POST /v1/media), the embedded search index, and the
 * agent card signing key (a file under DATA_DIR).
 */
export type LocalHttpPorts = Pick<DeliveryPorts, 'queue'> & {
  storage: MediaStorage;
  search: SearchIndex;
  cardSigner: CardSigner;
  /** Wakes the polls and streams waiting on a profile's event log when the stream poller appends to it. */
  wake: EventWake;
} & ExportPorts &
  DeletionPorts;

/** Paths the local server answers outside the route table: the media runtime's upload route and files. */
export interface LocalPaths {
  handles(path: string): boolean;
  serve(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

/**
 * A handler module's export: a route's handler (httpHandler) takes the ports it needs of them and
 * ignores the rest; the `$default` function takes none.
 */
type LoadedLambda = HttpLambda & Partial<Pick<RouteLambda<RouteDef, LocalHttpPorts>, 'withPorts'>>;

/** The function as the local runtime runs it: with the local ports when they are given. */
const bound = (lambda: LoadedLambda, ports: LocalHttpPorts | undefined): HttpLambda =>
  ports && lambda.withPorts ? lambda.withPorts(ports) : lambda;

/** Loads every handler of the route table, as API Gateway would have one Lambda per route. */
async function loadHandlers(ports?: LocalHttpPorts): Promise<Map<RouteName, HttpLambda>> {
  const entries = await Promise.all(
    routeList.map(async (route) => {
      const module = (await import(pathToFileURL(`${functionsDir}${route.handler}.ts`).href)) as {
        handler: LoadedLambda;
      };
      return [route.name, bound(module.handler, ports)] as const;
    }),
  );
  return new Map(entries);
}

/** The function behind a route (or `$default`), by its handler module name. */
type FunctionLookup = (handler: string) => Promise<HttpLambda>;

async function sourceFunctions(ports: LocalHttpPorts | undefined): Promise<FunctionLookup> {
  const handlers = await loadHandlers(ports);
  const byModule = new Map(routeList.map((route) => [route.handler, handlers.get(route.name)!] as const));
  byModule.set(NOT_FOUND_HANDLER, routeNotFound);
  // The MCP endpoint runs the tool routes' handlers loaded here, as its bundle runs its own copies.
  byModule.set(
    MCP_HANDLER,
    mcpEndpoint({
      invoke: (tool, event, context) => byModule.get(tool.route.handler)!(event, context),
      actableProfiles,
    }),
  );
  return async (handler) => byModule.get(handler)!;
}

/**
 * The deployed artefacts: each bundle is imported on its route's first request, as Lambda starts a
 * function on its first invocation (importing all of them up front takes seconds and ~300 MB).
 * Each bundle carries its own copy of the shared modules, as each Lambda does.
 */
function bundledFunctions(dir: string, ports: LocalHttpPorts | undefined): FunctionLookup {
  assertBundlesPresent(dir);
  const loaded = new Map<string, Promise<HttpLambda>>();
  return (handler) => {
    let lambda = loaded.get(handler);
    if (!lambda)
      loaded.set(handler, (lambda = importBundle<LoadedLambda>(dir, handler).then((bundle) => bound(bundle, ports))));
    return lambda;
  };
}

export interface HttpServerOptions {
  /** Serve the HTTP routes from the esbuild bundles in this directory (handler-bundles.ts) instead of the TypeScript sources. */
  bundlesDir?: string;
  /** The local runtime's ports (its in-process queue); without them the functions build their AWS adapters. */
  ports?: LocalHttpPorts;
  /** The media runtime's paths (upload route, files), which stand in for S3 and the CDN. */
  media?: LocalPaths;
  /** The local mailbox's listing (`/local/mail`). */
  mail?: LocalPaths;
  /** Export archives' downloads (`/local/exports/...`). */
  exports?: LocalPaths;
}

/** An API Gateway HTTP API (payload 2.0) event: lowercase headers, duplicates comma-joined. */
function toEvent(
  req: IncomingMessage,
  { path, rawQuery, query }: RequestTarget,
  body: Buffer,
  routeKey: string,
  pathParameters?: Record<string, string>,
): APIGatewayProxyEventV2 {
  const headers: Record<string, string> = {};
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!.toLowerCase();
    const value = req.rawHeaders[i + 1]!;
    headers[name] = headers[name] === undefined ? value : `${headers[name]},${value}`;
  }
  const now = new Date();
  const event: APIGatewayProxyEventV2 = {
    version: '2.0',
    routeKey,
    rawPath: path,
    rawQueryString: rawQuery,
    headers,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'local',
      http: {
        method: req.method ?? 'GET',
        path,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    isBase64Encoded: false,
  };
  if (headers.cookie) event.cookies = headers.cookie.split(';').map((c) => c.trim());
  if (Object.keys(query).length > 0) event.queryStringParameters = query;
  if (pathParameters && Object.keys(pathParameters).length > 0) event.pathParameters = pathParameters;
  if (body.length > 0) event.body = body.toString('utf8');
  return event;
}

const NO_BODY = Buffer.alloc(0);

/** RFC 9112 §6.3: a request without Content-Length or Transfer-Encoding has no body. */
const hasBody = (req: IncomingMessage) =>
  req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;

function send(res: ServerResponse, result: APIGatewayProxyStructuredResultV2): void {
  res.writeHead(result.statusCode ?? 200, result.headers as Record<string, string>);
  res.end(result.isBase64Encoded && result.body ? Buffer.from(result.body, 'base64') : result.body);
}

/** The HTTP response as a streaming function's sink: each write goes out at once; `closed` when the client goes. */
function responseSink(req: IncomingMessage, res: ServerResponse): ResponseSink {
  const gone = new AbortController();
  res.on('close', () => gone.abort());
  req.socket.setNoDelay(true);
  return {
    open(status, headers) {
      res.writeHead(status, headers);
      res.flushHeaders();
    },
    write: (text) => void res.write(text),
    end: () => res.end(),
    closed: gone.signal,
  };
}

/** The streaming functions, by handler module, from the sources (a bundle has no local entry for them). */
async function streamingFunctions(ports: LocalHttpPorts | undefined): Promise<Map<string, StreamLambda>> {
  const streaming = routeList.filter((route) => route.streaming);
  return new Map(
    await Promise.all(
      streaming.map(async (route) => {
        const module = (await import(pathToFileURL(`${functionsDir}${route.handler}.ts`).href)) as StreamingModule;
        return [route.handler, module.streamHandler(ports?.wake)] as const;
      }),
    ),
  );
}

/** The local stand-in for API Gateway: dispatches from the route table into the same handlers. */
export async function createHttpServer(options: HttpServerOptions = {}): Promise<Server> {
  const functionFor = options.bundlesDir
    ? bundledFunctions(options.bundlesDir, options.ports)
    : await sourceFunctions(options.ports);
  const streams = await streamingFunctions(options.ports);
  const match = routeMatcher(routeList);
  // The web console and the API reference, bundled once per start from the sources.
  const consoleAssets = buildConsoleAssets();

  const serve = async (req: IncomingMessage, res: ServerResponse) => {
    try {
      const target = requestTarget(req.url ?? '/');
      const { path } = target;
      // Before the body is read: an upload is larger than an API request, and its route reads it itself.
      if (options.media?.handles(path)) return await options.media.serve(req, res);
      if (options.mail?.handles(path)) return await options.mail.serve(req, res);
      if (options.exports?.handles(path)) return await options.exports.serve(req, res);
      const body = hasBody(req) ? await readCappedBody(req, GATEWAY_MAX_BODY) : NO_BODY;
      if (body === 'too_large') return send(res, errorResponse(new ApiError('payload_too_large')));
      if (isConsolePath(path)) {
        const page = serveAsset(consoleAssets, req.method ?? 'GET', path, req.headers['accept-encoding']);
        res.writeHead(page.status, page.headers);
        return void res.end(page.body);
      }
      if (path === MCP_PATH) {
        const mcp = await functionFor(MCP_HANDLER);
        return send(
          res,
          await mcp(toEvent(req, target, body, `${req.method ?? 'GET'} ${MCP_PATH}`), localContext('mcp')),
        );
      }
      const found = match(req.method ?? 'GET', path);
      if (found.kind !== 'found') {
        const event = toEvent(req, target, body, '$default');
        const notFound = await functionFor(NOT_FOUND_HANDLER);
        return send(res, await notFound(event, localContext('route-not-found')));
      }
      const { route, params } = found;
      const event = toEvent(req, target, body, `${route.method} ${route.path}`, params);
      const stream = streams.get(route.handler);
      // Response streaming: the function writes as it goes, for as long as a Lambda may run.
      if (stream) return await stream(event, responseSink(req, res), localContext(route.name, 15 * 60_000));
      const lambda = await functionFor(route.handler);
      send(res, await lambda(event, localContext(route.name)));
    } catch (error) {
      console.error('local server error', error);
      if (!res.headersSent) send(res, errorResponse(new ApiError('internal_error')));
    }
  };
  return createServer((req, res) => void serve(req, res));
}
