/**
 * The media pipeline of the local runtime, in-process: the local storage (local-media-storage.ts),
 * the upload route that stands in for the uploads bucket's POST endpoint (`POST /local-uploads`:
 * the signed policy enforced, then the same processor run on an S3-shaped ObjectCreated event),
 * the files served below `/local-media/` (the default MEDIA_BASE_URL, as the CDN serves them in
 * AWS), and the TTL and lifecycle rules DynamoDB Local and a directory lack: a reaper that
 * deletes expired media items (their REMOVE on the stream runs the same clean-up as in AWS) and
 * uploads older than a day.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { S3Event } from 'aws-lambda';
import { config } from '../../shared/config.js';
import { MEDIA_UPLOAD_RETENTION_SECONDS } from '../../shared/domain/media.js';
import { MEDIA_FILE_CACHE_CONTROL } from '../../shared/ports/media-storage.js';
import type { StreamHandler } from '../../shared/ports/shard-stream-event.js';
import { cleanUpMediaHandler } from '../../functions/media-pipeline/clean-up-media-handler.js';
import { processUploadHandler } from '../../functions/media-pipeline/process-upload-handler.js';
import { LocalMediaStorage } from './local-media-storage.js';
import { deleteExpiredMedia } from './media-ttl.js';
import { readCappedBody } from './read-capped-body.js';

/** The uploads "bucket" endpoint: upload forms post here. */
export const LOCAL_UPLOAD_PATH = '/local-uploads';
/** Below the local server's address, the default MEDIA_BASE_URL: processed files are served here. */
export const LOCAL_MEDIA_PATH = '/local-media';
/** The uploads bucket's name in the S3-shaped events of the local runtime. */
const LOCAL_UPLOAD_BUCKET = 'local-uploads';

/** The largest form the upload route reads: the largest file any purpose allows, and room for the fields. */
const MAX_FORM_BYTES = 11 * 1024 * 1024;
const REAP_EVERY_MS = 60_000;

export interface MediaRuntimeOptions {
  /** Keep uploads and files in memory (`--in-memory`) instead of under `dataDir/media/`. */
  inMemory: boolean;
  dataDir: string;
  /** The clock of form expiry, processing and expiry (a test's own clock). */
  now?: () => Date;
  /** How often the reaper runs (0: only when `reap` is called). */
  reapEveryMs?: number;
}

export interface MediaRuntime {
  /** The storage the create-media route presigns with (the local server's HTTP ports). */
  storage: LocalMediaStorage;
  /** The table stream's consumer: media items removed → their files deleted (as the clean-up Lambda). */
  onStream: StreamHandler;
  /** Whether a request path is the runtime's (the upload route or a media file). */
  handles(path: string): boolean;
  serve(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** DynamoDB's TTL and S3's lifecycle rule at `now`: expired media items and day-old uploads deleted. */
  reap(now: Date): Promise<{ media: string[]; uploads: string[] }>;
  /** Once the server listens at `serverUrl` (forms and URLs name it): starts the reaper. */
  start(serverUrl: string): Promise<void>;
  /** Stops the reaper and waits for uploads being processed. */
  stop(): Promise<void>;
}

/** An error as S3 answers one (XML). */
function s3Error(res: ServerResponse, status: number, code: string, message: string): void {
  const escape = (text: string) => text.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);
  res.writeHead(status, { 'content-type': 'application/xml' });
  res.end(
    `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${escape(message)}</Message></Error>`,
  );
}

/** The ObjectCreated event S3 sends the processor for an upload (the fields the handler reads, and the rest of the shape). */
function objectCreated(key: string, size: number, at: Date): S3Event {
  return {
    Records: [
      {
        eventVersion: '2.1',
        eventSource: 'aws:s3',
        awsRegion: 'local',
        eventTime: at.toISOString(),
        eventName: 'ObjectCreated:Post',
        userIdentity: { principalId: 'local' },
        requestParameters: { sourceIPAddress: '127.0.0.1' },
        responseElements: { 'x-amz-request-id': 'local', 'x-amz-id-2': 'local' },
        s3: {
          s3SchemaVersion: '1.0',
          configurationId: 'local-upload',
          bucket: { name: LOCAL_UPLOAD_BUCKET, ownerIdentity: { principalId: 'local' }, arn: 'arn:local' },
          object: {
            key: key.split('/').map(encodeURIComponent).join('/'),
            size,
            eTag: '',
            sequencer: at.getTime().toString(16),
          },
        },
      },
    ],
  };
}

export function mediaRuntime(options: MediaRuntimeOptions): MediaRuntime {
  const now = options.now ?? (() => new Date());
  let serverUrl: string | undefined;
  const server = () => {
    if (!serverUrl) throw new Error('the media runtime is used before the server listens');
    return serverUrl;
  };
  const storage = new LocalMediaStorage({
    inMemory: options.inMemory,
    dataDir: options.dataDir,
    uploadUrl: () => `${server()}${LOCAL_UPLOAD_PATH}`,
    now,
  });
  const processUploaded = processUploadHandler({ storage, now }, () => ({
    mediaBaseUrl: config.mediaBaseUrl ?? `${server()}${LOCAL_MEDIA_PATH}`,
  }));
  const processing = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  let reaping: Promise<unknown> = Promise.resolve();

  /** As S3's notification does: after the upload's answer, not before. */
  const notify = (key: string, size: number) => {
    const run = processUploaded(objectCreated(key, size, now()))
      .catch((error: Error) => console.error('media processor:', error.message))
      .finally(() => processing.delete(run));
    processing.add(run);
  };

  async function receiveUpload(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readCappedBody(req, MAX_FORM_BYTES);
    if (body === 'too_large')
      return s3Error(res, 400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size.');
    let form: FormData;
    try {
      form = await new Response(body, {
        headers: { 'content-type': req.headers['content-type'] ?? '' },
      }).formData();
    } catch {
      return s3Error(
        res,
        400,
        'MalformedPOSTRequest',
        'The body of the POST request is not well-formed multipart/form-data.',
      );
    }
    const accepted = await storage.acceptUpload(form.entries());
    if (!accepted.ok) return s3Error(res, accepted.status, accepted.code, accepted.message);
    res.writeHead(204);
    res.end();
    notify(accepted.key, accepted.body.length);
  }

  async function serveFile(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const key = decodeURIComponent(path.slice(LOCAL_MEDIA_PATH.length + 1));
    const file = await storage.readFile(key);
    if (!file) return s3Error(res, 404, 'NoSuchKey', 'The specified key does not exist.');
    res.writeHead(200, {
      'content-type': file.contentType,
      'content-length': file.body.length,
      'cache-control': MEDIA_FILE_CACHE_CONTROL,
    });
    res.end(req.method === 'HEAD' ? undefined : file.body);
  }

  const reap = async (at: Date) => {
    const media = await deleteExpiredMedia(at);
    const uploads = await storage.deleteUploadsStoredBefore(
      new Date(at.getTime() - MEDIA_UPLOAD_RETENTION_SECONDS * 1000),
    );
    return { media, uploads };
  };

  return {
    storage,
    onStream: cleanUpMediaHandler({ storage }),
    handles: (path) => path === LOCAL_UPLOAD_PATH || path.startsWith(`${LOCAL_MEDIA_PATH}/`),
    async serve(req, res) {
      const path = new URL(req.url ?? '/', 'http://localhost').pathname;
      const method = req.method ?? 'GET';
      if (path === LOCAL_UPLOAD_PATH) {
        if (method === 'POST') return receiveUpload(req, res);
        res.writeHead(405, { allow: 'POST' });
        return void res.end();
      }
      if (method === 'GET' || method === 'HEAD') return serveFile(req, res, path);
      res.writeHead(405, { allow: 'GET, HEAD' });
      res.end();
    },
    reap,
    async start(url) {
      serverUrl = url;
      const every = options.reapEveryMs ?? REAP_EVERY_MS;
      const run = () => {
        reaping = reaping
          .then(() => reap(now()))
          .catch((error: Error) => console.error('media reaper:', error.message));
        return reaping;
      };
      await run();
      if (every > 0) timer = setInterval(() => void run(), every);
    },
    async stop() {
      clearInterval(timer);
      await reaping;
      await Promise.all(processing);
    },
  };
}
