/**
 * The local adapter of ExportStorage: each archive a file under a directory (`DATA_DIR/exports`, or
 * a temporary one with `--in-memory`), written as the job streams it (to `<file>.partial`, renamed
 * when complete), and downloaded from the local server at `/local/exports/<key>` (served by
 * export-runtime.ts), as the bucket's presigned GET is in AWS.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, rename, rm, rmdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { once } from 'node:events';
import type { ExportStorage, ExportUpload } from '../../shared/ports/export-storage.js';
import { isStorableKey } from './local-media-storage.js';

/** Below the local server's address: archives are downloaded here. */
export const LOCAL_EXPORTS_PATH = '/local/exports/';

class FileUpload implements ExportUpload {
  private size = 0;

  constructor(
    private readonly out: WriteStream,
    private readonly partial: string,
    private readonly path: string,
  ) {}

  async write(chunk: Uint8Array): Promise<void> {
    this.size += chunk.byteLength;
    if (!this.out.write(chunk)) await once(this.out, 'drain');
  }

  async complete(): Promise<number> {
    await new Promise<void>((resolve, reject) =>
      this.out.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
    await rename(this.partial, this.path);
    return this.size;
  }

  async abort(): Promise<void> {
    this.out.destroy();
    await rm(this.partial, { force: true });
  }
}

export class LocalExportStorage implements ExportStorage {
  private base = 'http://127.0.0.1';

  constructor(readonly dir: string) {}

  /** The local server's address, once it listens (the download URLs name it). */
  serveAt(base: string): void {
    this.base = base;
  }

  /** The file of a key, refusing keys that would leave the directory. */
  fileOf(key: string): string {
    if (!isStorableKey(key)) throw new Error(`not a storable key: ${key}`);
    return join(this.dir, ...key.split('/'));
  }

  async open(key: string): Promise<ExportUpload> {
    const path = this.fileOf(key);
    await mkdir(dirname(path), { recursive: true });
    const partial = `${path}.partial`;
    return new FileUpload(createWriteStream(partial), partial, path);
  }

  downloadUrl(key: string): Promise<string> {
    return Promise.resolve(`${this.base}${LOCAL_EXPORTS_PATH}${key}`);
  }

  /** The file, and its folder once empty: S3 has no folders, and the erasure's proof looks for the export's id in the paths. */
  async delete(key: string): Promise<void> {
    const path = this.fileOf(key);
    await rm(path, { force: true });
    await rm(`${path}.partial`, { force: true });
    await rmdir(dirname(path)).catch(() => undefined);
  }
}
