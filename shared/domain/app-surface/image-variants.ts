/**
 * The one resizing of a picture into every documented variant of its kind (sharp: cover-cropped to the exact size,
 * EXIF orientation applied, metadata stripped), each stored in S3 under a new version. Both writers of images use
 * it: the operators' `npm run admin -- upload-image` (scripts/admin/images.ts) and the processing of a merchant's
 * presigned upload (location-image-uploads.ts). No request function imports it: sharp is in one function only.
 */
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { putImage } from '#shared/images/store.ts';
import { IMAGE_FORMAT, objectKey, variantsOf, type ImageSubject } from './images.ts';

/** Largest picture accepted: a phone photo fits; anything bigger is not a menu picture. */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;
/** sharp refuses to decode more pixels than this (a decompression bomb stays a small file). */
export const MAX_INPUT_PIXELS = 60_000_000;

/** Why a file is not a picture we store, in words a merchant understands. */
export type PictureProblem = { reason: 'not_an_image' | 'too_many_pixels' | 'unsupported_format'; message: string };

/**
 * Reads only the picture's header (no decoding): its format and size. `formats` limits what is accepted
 * (sharp's names: `jpeg`, `png`, `webp`...); undefined accepts whatever sharp reads.
 */
export async function pictureProblem(input: Uint8Array, formats?: readonly string[]): Promise<PictureProblem | undefined> {
  let metadata: Awaited<ReturnType<ReturnType<typeof sharp>['metadata']>>;
  try {
    // The header only (nothing is decoded): the pixel count is checked below, to name it as the reason.
    metadata = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    return { reason: 'not_an_image', message: 'The file is not a picture (JPEG, PNG or WebP).' };
  }
  if (formats && !formats.includes(metadata.format ?? '')) {
    return { reason: 'unsupported_format', message: `The picture is ${metadata.format ?? 'of an unknown format'}: send JPEG, PNG or WebP.` };
  }
  const pixels = (metadata.width ?? 0) * (metadata.height ?? 0);
  if (pixels === 0 || pixels > MAX_INPUT_PIXELS) {
    return { reason: 'too_many_pixels', message: `The picture has more than ${MAX_INPUT_PIXELS / 1_000_000} million pixels: send a smaller one.` };
  }
  return undefined;
}

/** Resizes `input` to every variant of the subject's kind and stores them under a new version; the caller records them. */
export async function storeVariants(subject: ImageSubject, input: Uint8Array): Promise<{ version: string; objects: Record<string, string> }> {
  const version = `${Date.now()}-${randomUUID().slice(0, 8)}`;
  const format = IMAGE_FORMAT[subject.kind];
  const objects: Record<string, string> = {};
  for (const variant of variantsOf(subject.kind)) {
    const resized = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS })
      .rotate()
      .resize(variant.pixelWidth, variant.pixelHeight, { fit: 'cover', position: 'attention' });
    const bytes = await (
      format.extension === 'png' ? resized.png({ compressionLevel: 9 }) : resized.flatten({ background: '#ffffff' }).jpeg({ quality: 82, mozjpeg: true })
    ).toBuffer();
    const key = objectKey(subject, version, variant.name);
    await putImage(key, bytes, format.contentType);
    objects[variant.name] = key;
  }
  return { version, objects };
}
