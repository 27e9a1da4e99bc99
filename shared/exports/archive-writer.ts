/**
 * A ZIP archive written as it is made, file after file, into an ExportUpload: fflate's streaming
 * `Zip` makes the bytes (synchronously, as each chunk is pushed) and each push waits for the
 * upload to take them, so what is held is one page of a file and one part of the upload, whatever
 * the archive's size. JSON lists are written a page at a time as one array. (fflate writes no
 * ZIP64: an archive stays under 4 GiB and 65,535 files.)
 */
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import type { ExportUpload } from '../ports/export-storage.js';

const encoder = new TextEncoder();

export class ArchiveWriter {
  private readonly zip: Zip;
  private pending: Uint8Array[] = [];
  private failure: Error | undefined;

  constructor(private readonly upload: ExportUpload) {
    this.zip = new Zip((error, chunk) => {
      if (error) this.failure ??= error;
      else this.pending.push(chunk);
    });
  }

  /** Hands what the last push made to the upload. */
  private async flush(): Promise<void> {
    if (this.failure) throw this.failure;
    const chunks = this.pending;
    this.pending = [];
    for (const chunk of chunks) await this.upload.write(chunk);
  }

  /** A file from its chunks; `stored` for bytes already compressed (images), deflated otherwise. */
  async file(name: string, chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, stored = false): Promise<void> {
    const entry = stored ? new ZipPassThrough(name) : new ZipDeflate(name, { level: 6 });
    this.zip.add(entry);
    for await (const chunk of chunks) {
      entry.push(chunk);
      await this.flush();
    }
    entry.push(new Uint8Array(0), true);
    await this.flush();
  }

  /** A small JSON document (pretty-printed, like every file of the archive). */
  json(name: string, value: unknown): Promise<void> {
    return this.file(name, [encoder.encode(`${JSON.stringify(value, null, 2)}\n`)]);
  }

  /** A JSON array from its pages: each page is encoded and pushed on its own. */
  jsonArray(name: string, pages: AsyncIterable<readonly unknown[]>): Promise<void> {
    return this.file(name, arrayChunks(pages));
  }

  /** Ends the archive (its central directory) and the upload; resolves with the archive's size. */
  async finish(): Promise<number> {
    this.zip.end();
    await this.flush();
    return this.upload.complete();
  }
}

async function* arrayChunks(pages: AsyncIterable<readonly unknown[]>): AsyncGenerator<Uint8Array> {
  let first = true;
  yield encoder.encode('[');
  for await (const page of pages) {
    if (page.length === 0) continue;
    const items = page.map((item) => `\n  ${JSON.stringify(item)}`).join(',');
    yield encoder.encode(first ? items : `,${items}`);
    first = false;
  }
  yield encoder.encode(first ? ']\n' : '\n]\n');
}
