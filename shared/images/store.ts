import { loadedOnFirstUse, optionalEnv, requireEnv } from '#shared/env.ts';

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

/**
 * The S3 packages are loaded on first use, not at import (`loadedOnFirstUse`, shared/env.ts):
 * @aws-sdk/client-s3 and @aws-sdk/s3-request-presigner cost every image function's cold start ~100 ms of
 * import CPU (issue 19), and a request that finds no image, or fails validation, never signs anything.
 */
const s3 = loadedOnFirstUse(() =>
  import('@aws-sdk/client-s3').then((commands) => {
    const endpoint = optionalEnv('S3_ENDPOINT');
    const client = new commands.S3Client(
      endpoint ? { endpoint, forcePathStyle: true, region: optionalEnv('AWS_REGION') ?? 'us-east-1', credentials: LOCAL_S3_CREDENTIALS } : {},
    );
    return { client, commands };
  }),
);
const presigner = loadedOnFirstUse(() => import('@aws-sdk/s3-request-presigner'));

export function imagesBucket(): string {
  return requireEnv('IMAGES_BUCKET');
}

/** A GET URL for one object, signed for SIGNED_URL_SECONDS. */
export async function signedImageUrl(key: string): Promise<string> {
  // Both packages load side by side.
  const [{ client, commands }, { getSignedUrl }] = await Promise.all([s3(), presigner()]);
  return getSignedUrl(client, new commands.GetObjectCommand({ Bucket: imagesBucket(), Key: key }), { expiresIn: SIGNED_URL_SECONDS });
}

export async function putImage(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
  const { client, commands } = await s3();
  await client.send(
    new commands.PutObjectCommand({ Bucket: imagesBucket(), Key: key, Body: bytes, ContentType: contentType, CacheControl: 'private, max-age=86400' }),
  );
}

export async function deleteImages(keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  const { client, commands } = await s3();
  for (let start = 0; start < keys.length; start += 1000) {
    const batch = keys.slice(start, start + 1000);
    if (batch.length > 0)
      await client.send(new commands.DeleteObjectsCommand({ Bucket: imagesBucket(), Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }));
  }
}

/** Every image object's key starts here (the image functions may read nothing else). */
export const IMAGE_KEY_PREFIX = 'images/';

/** Every upload waiting to be processed is under this prefix (the processing function may read and delete only here). */
export const UPLOAD_KEY_PREFIX = 'uploads/';

const presignedPost = loadedOnFirstUse(() => import('@aws-sdk/s3-presigned-post'));

/** What a browser sends to upload: the form's action and its fields (the file goes last, as `file`). */
export interface PresignedUpload {
  url: string;
  fields: Record<string, string>;
}

/**
 * A presigned POST of one object: S3 refuses it after `expiresSeconds`, outside `minBytes..maxBytes`, with any
 * other key or any other Content-Type (the policy's conditions, signed with the function's credentials).
 */
export async function presignedUpload(
  key: string,
  limits: { contentType: string; minBytes: number; maxBytes: number; expiresSeconds: number },
): Promise<PresignedUpload> {
  const [{ client }, { createPresignedPost }] = await Promise.all([s3(), presignedPost()]);
  return createPresignedPost(client, {
    Bucket: imagesBucket(),
    Key: key,
    Conditions: [
      ['content-length-range', limits.minBytes, limits.maxBytes],
      ['eq', '$Content-Type', limits.contentType],
    ],
    Fields: { 'Content-Type': limits.contentType },
    Expires: limits.expiresSeconds,
  });
}

/** One stored object's bytes and type, or undefined when it is gone (a repeated event after its deletion). */
export async function readObject(key: string, maxBytes: number): Promise<{ bytes: Uint8Array; contentType: string | undefined; size: number } | undefined> {
  const { client, commands } = await s3();
  try {
    const head = await client.send(new commands.HeadObjectCommand({ Bucket: imagesBucket(), Key: key }));
    const size = head.ContentLength ?? 0;
    // Larger than any accepted upload: not read into memory (S3's policy already refuses it; s3rver does not).
    if (size > maxBytes) return { bytes: new Uint8Array(), contentType: head.ContentType, size };
    const object = await client.send(new commands.GetObjectCommand({ Bucket: imagesBucket(), Key: key }));
    const bytes = await object.Body!.transformToByteArray();
    return { bytes, contentType: object.ContentType, size: bytes.byteLength };
  } catch (error) {
    const name = (error as { name?: string }).name;
    if (name === 'NotFound' || name === 'NoSuchKey') return undefined;
    throw error;
  }
}
