import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { s3Handler } from '../../functions/location-image-uploads-process.ts';
import { startS3Local, type S3Local } from '../../scripts/local/s3.ts';
import { UPLOAD_KEY_PREFIX } from '#shared/images/store.ts';

/**
 * A test file's own s3rver, whose upload events this worker's image processing function receives (the run's shared
 * one is another process's), named by S3_ENDPOINT: the image store's S3 client is made on first use, after this.
 * `stop` also deletes its files.
 */
export async function startUploadsS3(name: string, options: { consoleOrigin?: string } = {}): Promise<S3Local> {
  const directory = mkdtempSync(join(tmpdir(), `${name}-`));
  const s3 = await startS3Local({ directory, ...options });
  process.env.S3_ENDPOINT = s3.endpoint;
  s3.onObjectCreated(UPLOAD_KEY_PREFIX, s3Handler);
  return {
    endpoint: s3.endpoint,
    onObjectCreated: (prefix, handler) => s3.onObjectCreated(prefix, handler),
    stop: async () => {
      await s3.stop();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** A photo-sized upload: a 900 x 600 JPEG of one colour. */
export const sampleJpeg = (background: string): Promise<Buffer> =>
  sharp({ create: { width: 900, height: 600, channels: 3, background } })
    .jpeg()
    .toBuffer();
