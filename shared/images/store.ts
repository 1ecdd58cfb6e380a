import { DeleteObjectsCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { optionalEnv, requireEnv } from '#shared/env.ts';

/**
 * The image store port: resized images in Amazon S3 (a private bucket, IMAGES_BUCKET). The image routes
 * only sign a short-lived GET for an object (no S3 call: the signature is computed in the function); the
 * operators' upload writes and deletes. Locally and in tests S3_ENDPOINT points the same client at
 * s3rver (path-style addressing, its fixed local credentials), so the same code runs.
 */

/** How long a signed image URL stays valid: the client follows the 302 at once; a little slack for slow networks. */
export const SIGNED_URL_SECONDS = 15 * 60;

/** s3rver's fixed credentials (it checks signatures with them). */
export const LOCAL_S3_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

function s3Client(): S3Client {
  const endpoint = optionalEnv('S3_ENDPOINT');
  return new S3Client(
    endpoint ? { endpoint, forcePathStyle: true, region: optionalEnv('AWS_REGION') ?? 'us-east-1', credentials: LOCAL_S3_CREDENTIALS } : {},
  );
}

let client: S3Client | undefined;
const s3 = () => (client ??= s3Client());

export function imagesBucket(): string {
  return requireEnv('IMAGES_BUCKET');
}

/** A GET URL for one object, signed for SIGNED_URL_SECONDS. */
export async function signedImageUrl(key: string): Promise<string> {
  return getSignedUrl(s3(), new GetObjectCommand({ Bucket: imagesBucket(), Key: key }), { expiresIn: SIGNED_URL_SECONDS });
}

export async function putImage(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
  await s3().send(new PutObjectCommand({ Bucket: imagesBucket(), Key: key, Body: bytes, ContentType: contentType, CacheControl: 'private, max-age=86400' }));
}

export async function deleteImages(keys: readonly string[]): Promise<void> {
  for (let start = 0; start < keys.length; start += 1000) {
    const batch = keys.slice(start, start + 1000);
    if (batch.length > 0) await s3().send(new DeleteObjectsCommand({ Bucket: imagesBucket(), Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }));
  }
}

/** Every image object's key starts here (the image functions may read nothing else). */
export const IMAGE_KEY_PREFIX = 'images/';
