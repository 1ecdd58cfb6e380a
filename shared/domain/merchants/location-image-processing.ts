/**
 * The processing of a merchant's uploaded picture (location-image-uploads.ts), run by S3's ObjectCreated event on
 * the uploads prefix (functions/location-image-uploads-process.ts; locally, s3rver's event). Exactly once: every
 * outcome is a write conditional on the upload still being `pending`, so a repeated or concurrent event changes
 * nothing (its resized objects, if it made any, are deleted). The bytes are checked again here whatever S3's policy
 * allowed: the size, then the header (a picture of an accepted format, at most MAX_INPUT_PIXELS: a decompression bomb
 * is refused before anything decodes it).
 */
import { equals } from '#shared/db/conditions.ts';
import { transactWrite } from '#shared/db/transactions.ts';
import { log } from '#shared/log.ts';
import { deleteImages, readObject } from '#shared/images/store.ts';
import { isoSeconds } from '#shared/time.ts';
import { auditEntry } from '#shared/domain/audit/audit-log.ts';
import { getImageNow, imageRecordPut, type ImageSubject } from '#shared/domain/app-surface/images.ts';
import { pictureProblem, storeVariants } from '#shared/domain/app-surface/image-variants.ts';
import { getLocation } from './locations.ts';
import { ImageUpload, MAX_UPLOAD_BYTES, UPLOAD_FORMATS, parseUploadObjectKey, type ImageUploadItem } from './location-image-uploads.ts';
import type { UploadFailure } from '#shared/schemas/location-images.ts';

/** What one event did, for the log and the tests. */
export type ProcessingOutcome = 'ready' | 'failed' | 'ignored' | 'duplicate';

/** A replacement that lost to another writer of the same location's image reads it again, this many times. */
const IMAGE_RACE_ATTEMPTS = 3;

const stillPending = equals('state', 'pending');

/** Processes the uploaded object `key` (an S3 event's key, already URL-decoded). */
export async function processUploadedImage(key: string): Promise<ProcessingOutcome> {
  const named = parseUploadObjectKey(key);
  if (!named) {
    log('warn', 'image upload: key outside the uploads layout ignored', { key });
    return 'ignored';
  }
  const upload = await ImageUpload.at(named.uploadId).get({ consistent: true });
  // Only the key the upload was signed for: another tenant's ids in a key name nothing of theirs.
  if (!upload || upload.object_key !== key) {
    log('warn', 'image upload: object of no upload ignored', { key });
    return 'ignored';
  }
  if (upload.state !== 'pending') return 'duplicate';
  const object = await readObject(key, MAX_UPLOAD_BYTES);
  if (!object) return 'duplicate';

  const location = await getLocation(upload.location_id, { consistent: true });
  if (location?.merchant_id !== upload.merchant_id) return fail(upload, 'location_gone', 'The location no longer exists.');
  if (object.size > MAX_UPLOAD_BYTES) return fail(upload, 'too_large', `The file is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MiB.`);
  const problem = await pictureProblem(object.bytes, UPLOAD_FORMATS);
  if (problem) return fail(upload, problem.reason, problem.message);

  const subject: ImageSubject = { kind: 'location', locationId: upload.location_id };
  const stored = await storeVariants(subject, object.bytes);
  for (let attempt = 1; attempt <= IMAGE_RACE_ATTEMPTS; attempt++) {
    const previous = await getImageNow(subject);
    const now = new Date();
    const items = [
      ImageUpload.at(upload.upload_id).update({ set: { state: 'ready', image_version: stored.version, updated_at: isoSeconds(now) } }, stillPending),
      imageRecordPut(subject, stored.version, stored.objects, previous?.version),
      auditEntry(
        upload.audit,
        {
          merchantId: upload.merchant_id,
          action: 'location.image_changed',
          object: { type: 'location', id: upload.location_id },
          before: { image_version: previous?.version ?? null },
          after: { image_version: stored.version, upload_id: upload.upload_id },
        },
        now,
      ),
    ];
    const outcome = await transactWrite(() => items);
    if (outcome.committed) {
      await deleteImages([...Object.values(previous?.objects ?? {}), key]);
      return 'ready';
    }
    // The upload is no longer pending: another delivery of the event committed first.
    if (outcome.reasons[0] === 'ConditionalCheckFailed') break;
  }
  await deleteImages(Object.values(stored.objects));
  const current = await ImageUpload.at(upload.upload_id).get({ consistent: true });
  if (current?.state === 'pending') throw new Error(`image upload ${upload.upload_id}: the location's image kept changing; the event is retried`);
  return 'duplicate';
}

/** Marks the upload failed with a reason the merchant reads, once; the uploaded object is deleted either way. */
async function fail(upload: ImageUploadItem, reason: UploadFailure, message: string): Promise<ProcessingOutcome> {
  const outcome = await transactWrite(() => [
    ImageUpload.at(upload.upload_id).update(
      { set: { state: 'failed', failure_reason: reason, failure_message: message, updated_at: isoSeconds() } },
      stillPending,
    ),
  ]);
  await deleteImages([upload.object_key]);
  return outcome.committed ? 'failed' : 'duplicate';
}
