/**
 * S3's ObjectCreated events of the uploads prefix -> the processing of a merchant's uploaded picture (not an HTTP
 * route: it exports `s3Handler`, so the gateway can never serve it). In AWS the bucket's notification invokes it;
 * locally scripts/local/s3.ts passes s3rver's events to it the same way. The only function that bundles sharp.
 * A failure throws, so Lambda's asynchronous retry runs it again; a repeated event changes nothing
 * (shared/domain/merchants/location-image-processing.ts).
 */
import type { S3Event } from 'aws-lambda';
import { processUploadedImage, type ProcessingOutcome } from '#shared/domain/merchants/location-image-processing.ts';
import { log } from '#shared/log.ts';

export async function s3Handler(event: S3Event): Promise<ProcessingOutcome[]> {
  const outcomes: ProcessingOutcome[] = [];
  for (const record of event.Records) {
    if (!record.eventName.startsWith('ObjectCreated:')) continue;
    // S3 sends keys URL-encoded, spaces as '+'.
    const key = decodeURIComponent(record.s3.object.key.replace(/\+/g, ' '));
    const outcome = await processUploadedImage(key);
    log('info', 'image upload processed', { key, outcome });
    outcomes.push(outcome);
  }
  return outcomes;
}
