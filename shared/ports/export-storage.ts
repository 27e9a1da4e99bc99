/**
 * ExportStorage port: where export archives are written, a part at a time, and how one is
 * downloaded. In AWS the private export bucket, through S3 multipart upload and presigned GETs
 * (shared/ports/aws/s3-export-storage.ts); locally files under DATA_DIR served by the local
 * runtime (infra/local/local-export-storage.ts).
 */

/** One archive being written: bytes go in as the archive is made, never the whole of it at once. */
export interface ExportUpload {
  /** Appends bytes; resolves once the storage can take more (a part may be sent meanwhile). */
  write(chunk: Uint8Array): Promise<void>;
  /** Finishes the object; resolves with its size in bytes. */
  complete(): Promise<number>;
  /** Drops whatever was written (a job that failed midway leaves nothing behind). */
  abort(): Promise<void>;
}

export interface ExportStorage {
  /** Starts writing the object at `key` (replacing what a failed earlier try left). */
  open(key: string): Promise<ExportUpload>;
  /** A URL that downloads the object until `expiresAt`, without a credential of this API. */
  downloadUrl(key: string, expiresAt: Date): Promise<string>;
  /** Deletes the object at `key` (an erasure's; a key with no object is no error). */
  delete(key: string): Promise<void>;
}
