/**
 * The local adapter of MediaStorage: the two buckets as two object stores, directories under
 * `DATA_DIR/media/` (`uploads/`, `files/`) or maps in memory with `--in-memory`. Uploads arrive
 * only through the local upload route, which checks the signed form (local-upload-form.ts)
 * before anything is stored; files are served by the local server below the media base URL.
 * Nothing is written to disk before the first upload form is signed or checked, or the first file stored.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rm, rmdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { MediaStorage, PresignedUpload, UploadPolicy } from '../../shared/ports/media-storage.js';
import {
  checkUploadForm,
  signUploadForm,
  type AcceptedUpload,
  type FormValue,
  type UploadRefusal,
} from './local-upload-form.js';

export interface StoredObject {
  body: Buffer;
  contentType: string;
  storedAt: Date;
}

/** One bucket's worth of objects by key. */
interface ObjectStore {
  put(key: string, object: StoredObject): Promise<void>;
  get(key: string): Promise<StoredObject | undefined>;
  delete(key: string): Promise<void>;
  /** Every key that starts with `prefix`. */
  keys(prefix: string): Promise<string[]>;
}

/** A key the stores accept: `/`-separated segments of letters, digits, `.`, `_`, `-`, none of them `.` or `..`. */
export const isStorableKey = (key: string): boolean =>
  key.length > 0 &&
  key.length <= 512 &&
  key.split('/').every((segment) => /^[A-Za-z0-9._-]+$/.test(segment) && segment !== '.' && segment !== '..');

class MemoryObjectStore implements ObjectStore {
  private readonly objects = new Map<string, StoredObject>();

  put(key: string, object: StoredObject) {
    this.objects.set(key, object);
    return Promise.resolve();
  }

  get(key: string) {
    return Promise.resolve(this.objects.get(key));
  }

  delete(key: string) {
    this.objects.delete(key);
    return Promise.resolve();
  }

  keys(prefix: string) {
    return Promise.resolve([...this.objects.keys()].filter((key) => key.startsWith(prefix)));
  }
}

const META = '.meta.json';

/** Each object as a file at its key under `root`, its content type and time beside it in `<file>.meta.json`. */
class DirectoryObjectStore implements ObjectStore {
  constructor(private readonly root: string) {}

  private path(key: string): string {
    if (!isStorableKey(key)) throw new Error(`not a storable key: ${key}`);
    return join(this.root, ...key.split('/'));
  }

  async put(key: string, object: StoredObject) {
    const path = this.path(key);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, object.body);
    await writeFile(
      path + META,
      JSON.stringify({ content_type: object.contentType, stored_at: object.storedAt.toISOString() }),
    );
  }

  async get(key: string) {
    const path = this.path(key);
    try {
      const meta = JSON.parse(await readFile(path + META, 'utf8')) as { content_type: string; stored_at: string };
      return { body: await readFile(path), contentType: meta.content_type, storedAt: new Date(meta.stored_at) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async delete(key: string) {
    const path = this.path(key);
    await rm(path + META, { force: true });
    await rm(path, { force: true });
    await this.removeEmptyParents(dirname(path));
  }

  /** S3 has no folders: a folder the last object of a media leaves empty goes too (its name is the media's id). */
  private async removeEmptyParents(dir: string): Promise<void> {
    for (let at = dir; at.startsWith(this.root) && at !== this.root; at = dirname(at)) {
      try {
        await rmdir(at);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOTEMPTY' || code === 'EEXIST') return;
        if (code !== 'ENOENT') throw error;
      }
    }
  }

  async keys(prefix: string) {
    try {
      const entries = await readdir(this.root, { recursive: true, withFileTypes: true });
      return entries
        .filter((entry) => entry.isFile() && entry.name.endsWith(META))
        .map((entry) => relative(this.root, resolve(entry.parentPath, entry.name.slice(0, -META.length))))
        .map((path) => path.split(sep).join('/'))
        .filter((key) => key.startsWith(prefix));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  }
}

export interface LocalMediaStorageOptions {
  /** Keep everything in memory (`--in-memory`) instead of under `dataDir/media/`. */
  inMemory: boolean;
  dataDir: string;
  /** Where the upload forms post to: the local server's upload route (known once it listens). */
  uploadUrl: () => string;
  now: () => Date;
}

export class LocalMediaStorage implements MediaStorage {
  private readonly uploads: ObjectStore;
  private readonly files: ObjectStore;
  private secret: Promise<Buffer> | undefined;

  constructor(private readonly options: LocalMediaStorageOptions) {
    const root = join(resolve(options.dataDir), 'media');
    this.uploads = options.inMemory ? new MemoryObjectStore() : new DirectoryObjectStore(join(root, 'uploads'));
    this.files = options.inMemory ? new MemoryObjectStore() : new DirectoryObjectStore(join(root, 'files'));
  }

  /**
   * The forms' signing secret: per process in memory; per data directory on disk, so the forms
   * handed out before a restart still upload after it.
   */
  private signingSecret(): Promise<Buffer> {
    return (this.secret ??= this.options.inMemory ? Promise.resolve(randomBytes(32)) : this.secretOnDisk());
  }

  private async secretOnDisk(): Promise<Buffer> {
    const path = join(resolve(this.options.dataDir), 'media', 'upload-signing-secret');
    try {
      return await readFile(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    await mkdir(dirname(path), { recursive: true });
    // `wx`: two processes on one data directory agree on the first one's secret.
    await writeFile(path, randomBytes(32), { mode: 0o600, flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
    return readFile(path);
  }

  async presignUpload(policy: UploadPolicy): Promise<PresignedUpload> {
    return signUploadForm(this.options.uploadUrl(), await this.signingSecret(), policy);
  }

  async readUpload(key: string): Promise<Buffer | undefined> {
    return (await this.uploads.get(key))?.body;
  }

  deleteUpload(key: string): Promise<void> {
    return this.uploads.delete(key);
  }

  putFile(key: string, body: Buffer, contentType: string): Promise<void> {
    return this.files.put(key, { body, contentType, storedAt: this.options.now() });
  }

  async deleteFiles(prefix: string): Promise<void> {
    for (const key of await this.files.keys(prefix)) await this.files.delete(key);
  }

  /** A posted upload form (its entries in order): stored when its signed policy allows it, else refused with nothing stored. */
  async acceptUpload(entries: Iterable<[string, FormValue]>): Promise<AcceptedUpload | UploadRefusal> {
    const checked = await checkUploadForm(entries, await this.signingSecret(), this.options.now());
    if (!checked.ok) return checked;
    if (!isStorableKey(checked.key))
      return { ok: false, status: 400, code: 'InvalidArgument', message: 'The key is not a valid object key.' };
    await this.uploads.put(checked.key, {
      body: checked.body,
      contentType: checked.contentType,
      storedAt: this.options.now(),
    });
    return checked;
  }

  /** A processed file, for the local server to serve; undefined for a key that is not stored (or not a key). */
  readFile(key: string): Promise<StoredObject | undefined> {
    return isStorableKey(key) ? this.files.get(key) : Promise.resolve(undefined);
  }

  /** The S3 lifecycle rule of the uploads bucket: uploads stored before `cutoff` are deleted. Returns their keys. */
  async deleteUploadsStoredBefore(cutoff: Date): Promise<string[]> {
    const deleted: string[] = [];
    for (const key of await this.uploads.keys('')) {
      const upload = await this.uploads.get(key);
      if (upload && upload.storedAt < cutoff) {
        await this.uploads.delete(key);
        deleted.push(key);
      }
    }
    return deleted;
  }
}
