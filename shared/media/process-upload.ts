/**
 * What happens to an upload, in AWS (the uploads bucket's ObjectCreated event) and locally (the
 * local upload route) alike: claim the media (`awaiting_upload → processing`, a conditional
 * write, so an event seen twice finds nothing to do), read the upload, make the four files
 * (processImage), write them, end `ready` with their URLs or `failed` with why, delete the upload.
 *
 * Order, so that a crash anywhere is recovered by the retried event: the files are written before
 * the media is `ready` (a ready media's URLs always work), and the upload is deleted only after
 * (a retry after the lease finds it again). The files' keys are fixed by the media id, so writing
 * them twice is harmless.
 */
import type { MediaVariant } from '../domain/entities.js';
import { mediaObjectKeys, type MediaRecord } from '../domain/media.js';
import type { MediaStorage } from '../ports/media-storage.js';
import { claimMediaForProcessing, finishMediaProcessing, type MediaOutcome } from '../store/media.js';
import { processImage, type ProcessedFile } from './process-image.js';

export interface ProcessUploadPorts {
  storage: MediaStorage;
  now?: () => Date;
}

export interface ProcessUploadSettings {
  /** Public base of the files, no trailing slash (a file's URL is `<base>/<key>`). */
  mediaBaseUrl: string;
}

/** What became of one upload event: processed to an end, or nothing to do. */
export type ProcessUploadResult = 'ready' | 'failed' | 'not_claimed' | 'claim_lost';

const urlsOf = (media: MediaRecord, files: ProcessedFile[], base: string): MediaVariant => {
  const url = (name: ProcessedFile['name']) => {
    const file = files.find((f) => f.name === name);
    if (!file) throw new Error(`processImage returned no ${name} file`);
    return `${base}/${mediaObjectKeys.variant(media.id, file.name, file.extension)}`;
  };
  return { source_url: url('source'), large_url: url('large'), medium_url: url('medium'), small_url: url('small') };
};

async function outcomeOf(
  media: MediaRecord,
  upload: Buffer | undefined,
  storage: MediaStorage,
  settings: ProcessUploadSettings,
): Promise<MediaOutcome> {
  if (!upload || upload.length === 0)
    return { status: 'failed', errorCode: 'unsupported_media_type', errorMessage: 'The upload is empty or missing.' };
  // The storage's policy holds the length to the declared one; this holds even if a policy did not.
  if (upload.length > media.content_length)
    return {
      status: 'failed',
      errorCode: 'image_too_large',
      errorMessage: 'The upload has more bytes than the declared content_length.',
    };
  const result = await processImage(upload, media.purpose, media.content_type);
  if (!result.ok) return { status: 'failed', errorCode: result.errorCode, errorMessage: result.errorMessage };
  await Promise.all(
    result.files.map((file) =>
      storage.putFile(mediaObjectKeys.variant(media.id, file.name, file.extension), file.body, file.contentType),
    ),
  );
  return {
    status: 'ready',
    urls: urlsOf(media, result.files, settings.mediaBaseUrl),
    width: result.width,
    height: result.height,
  };
}

/** Processes the upload of media `mediaId`, once (see above). Throws only for failures worth a retry. */
export async function processUpload(
  mediaId: string,
  ports: ProcessUploadPorts,
  settings: ProcessUploadSettings,
): Promise<ProcessUploadResult> {
  const now = ports.now ?? (() => new Date());
  const claimed = await claimMediaForProcessing(mediaId, now());
  if (!claimed) return 'not_claimed';
  const key = mediaObjectKeys.upload(mediaId);
  const outcome = await outcomeOf(claimed, await ports.storage.readUpload(key), ports.storage, settings);
  const finished = await finishMediaProcessing(claimed, outcome, now());
  if (!finished) return 'claim_lost';
  await ports.storage.deleteUpload(key);
  return finished.status === 'ready' ? 'ready' : 'failed';
}

/** The media id of an upload's key (`incoming/<id>`), or undefined for any other key. */
export function mediaIdOfUploadKey(key: string): string | undefined {
  const prefix = mediaObjectKeys.upload('');
  const id = key.startsWith(prefix) ? key.slice(prefix.length) : '';
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id) ? id : undefined;
}
