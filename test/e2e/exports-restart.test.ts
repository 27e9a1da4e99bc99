/**
 * An export outlives a stopped local runtime: the server is killed while the job is half way
 * through the archive (held on a media file it reads), and after `npm start` again the export
 * becomes ready with one complete archive. The media files are served through a door the test
 * holds shut, so where the job stands when the server dies is known, not timed.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { startLocalServer, type LocalServer } from '../../infra/local/server-process.js';
import { LOCAL_MEDIA_PATH } from '../../infra/local/media-runtime.js';
import { unique } from '../support/api.js';
import { client, scanTable } from '../support/erasure.js';
import { TEST_SERVER_SETTINGS } from '../support/global-setup.js';

/**
 * The media base URL of both servers: passes each request on to `target`, or, while `target` is
 * undefined, holds it unanswered and says so through `held`.
 */
function mediaDoor() {
  let target: string | undefined;
  let heldOne: () => void = () => {};
  const held = new Promise<void>((resolve) => (heldOne = resolve));
  const waiting: ServerResponse[] = [];
  const server: Server = createServer((req, res) => {
    if (!target) {
      waiting.push(res);
      return heldOne();
    }
    void fetch(`${target}${req.url}`).then(
      async (answer) => {
        res.writeHead(answer.status, {
          'content-type': answer.headers.get('content-type') ?? 'application/octet-stream',
        });
        res.end(new Uint8Array(await answer.arrayBuffer()));
      },
      () => res.writeHead(502).end(),
    );
  });
  return {
    listen: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () => {
          const { port } = server.address() as { port: number };
          resolve(`http://127.0.0.1:${port}${LOCAL_MEDIA_PATH}`);
        }),
      ),
    /** Requests go to `serverUrl`'s media from now on; undefined: held. */
    open: (serverUrl: string | undefined) => (target = serverUrl),
    held,
    close: () => {
      for (const res of waiting) res.destroy();
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const servers: LocalServer[] = [];
const door = mediaDoor();
const dataDir = mkdtempSync(join(tmpdir(), 'exports-restart-'));
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await door.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('killing the local server in the middle of an export', () => {
  it('makes the export ready after the restart, with one valid archive', async () => {
    const env = {
      DYNAMODB_ENDPOINT: inject('dynamodbEndpoint'),
      TABLE_NAME: unique('exports_restart'),
      DATA_DIR: dataDir,
      MEDIA_BASE_URL: await door.listen(),
      ...TEST_SERVER_SETTINGS,
    };
    const first = await startLocalServer(env);
    servers.push(first);
    door.open(first.baseUrl);
    const c = client(first.baseUrl);
    const me = await c.person('Export Person', 'exports before a crash');
    const imageId = await c.image(me, 'post_image');
    await c.post(me, { body: 'a picture', images: [{ media_id: imageId, alt_text: 'Green' }] });

    door.open(undefined);
    const created = await c.send('POST', '/v1/me/exports', { token: me.session });
    expect(created.status).toBe(201);
    const exportId = created.body.data.export.id as string;
    // The job is writing the archive (it reads the image): killed as a crash would end it.
    await door.held;
    await first.stop('SIGKILL');
    const exportDir = join(dataDir, 'exports', exportId);
    expect(readdirSync(exportDir).filter((name) => name.endsWith('.partial'))).toHaveLength(1);
    const stored = (await scanTable(env.DYNAMODB_ENDPOINT, env.TABLE_NAME)).filter((i) => i.entity === 'data_export');
    expect(stored.map((i) => i.status)).toEqual(['pending']);

    const second = await startLocalServer(env);
    servers.push(second);
    door.open(second.baseUrl);
    const again = client(second.baseUrl);
    const deadline = Date.now() + 60_000;
    let exported = again.send('GET', `/v1/me/exports/${exportId}`, { token: me.session });
    while ((await exported).body.data.export.status === 'pending' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      exported = again.send('GET', `/v1/me/exports/${exportId}`, { token: me.session });
    }
    const ready = (await exported).body.data.export;
    expect(ready.status).toBe('ready');

    const download = await fetch(ready.download_url as string);
    expect(download.status).toBe(200);
    const bytes = new Uint8Array(await download.arrayBuffer());
    expect(bytes.byteLength).toBe(ready.size_bytes);
    const files = unzipSync(bytes);
    const media = (await again.send('GET', `/v1/media/${imageId}`, again.as(me))).body.data;
    const served = new Uint8Array(await (await fetch(media.urls.source_url as string)).arrayBuffer());
    const name = new URL(media.urls.source_url as string).pathname.split('/').pop();
    expect(files[`profiles/${me.profile.username}/media/${imageId}/${name}`]).toEqual(served);
    expect(Object.keys(files)).toContain('account.json');
    // One archive, written again from the start: no second file, no half-written one left.
    expect(readdirSync(exportDir)).toEqual([new URL(ready.download_url as string).pathname.split('/').pop()]);
    expect(existsSync(join(exportDir, `${readdirSync(exportDir)[0]}.partial`))).toBe(false);
    const after = (await scanTable(env.DYNAMODB_ENDPOINT, env.TABLE_NAME)).filter((i) => i.entity === 'data_export');
    expect(after.map((i) => [i.status, i.gsi2pk])).toEqual([['ready', undefined]]);
  }, 240_000); // two server starts on 2 cores
});
