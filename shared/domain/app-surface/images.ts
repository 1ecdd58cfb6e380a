import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#shared/db/client.ts';
import { defineEntity, type EntityItem } from '#shared/db/entity.ts';
import { equals, itemIsNew } from '#shared/db/conditions.ts';
import { keys } from '#shared/db/keys.ts';
import { isoSeconds } from '#shared/time.ts';
import { IMAGE_KEY_PREFIX, SIGNED_URL_SECONDS, signedImageUrl } from '#shared/images/store.ts';

export { SIGNED_URL_SECONDS };

/**
 * Images of locations (A25), campaigns (A23) and their reward icons (A24), and order-ahead menu items (O2):
 * each answered by a 302 to the stored image at one of the documented sizes and densities, 404 when there
 * is none. Operators upload one picture per subject (`npm run admin -- upload-image`); it is resized once,
 * at upload, to every variant of its kind (scripts/admin/images.ts, with sharp), stored in S3 under a new
 * version, and the subject's Image item lists the variants. The routes read that item and sign a URL: no
 * resizing, no S3 call, nothing heavy in a request function.
 */
export const IMAGE_KINDS = ['location', 'campaign-image', 'campaign-icon', 'menu-item'] as const;
export type ImageKind = (typeof IMAGE_KINDS)[number];

export interface ImageSize {
  width: number;
  height: number;
  densities: readonly number[];
}

const square = (side: number, densities: readonly number[]): ImageSize => ({ width: side, height: side, densities });

/** The documented sizes (width x height) and densities of each kind (SDK reference A23-A25, O2). */
export const IMAGE_SIZES: Record<ImageKind, readonly ImageSize[]> = {
  // v15 and v14 location-image tables together: every size either documents, at every density either lists.
  location: [
    { width: 280, height: 128, densities: [1, 1.5, 2] },
    { width: 290, height: 335, densities: [1, 1.5, 2] },
    { width: 320, height: 212, densities: [1, 1.5, 2] },
    { width: 400, height: 235, densities: [1, 1.5, 2] },
    { width: 460, height: 180, densities: [1, 1.5, 2] },
    { width: 414, height: 106, densities: [2] },
    { width: 1440, height: 368, densities: [1] },
  ],
  'campaign-image': [{ width: 320, height: 212, densities: [1, 1.5, 2] }],
  'campaign-icon': [200, 100, 50, 48, 32, 26].map((side) => square(side, [1, 1.5, 2, 3, 4])),
  'menu-item': [
    { width: 420, height: 300, densities: [1, 1.5, 2, 3] },
    { width: 320, height: 180, densities: [1, 1.5, 2, 3] },
    { width: 133, height: 92, densities: [1, 1.5, 2, 3] },
  ],
};

/** Icons keep transparency (PNG); photos are JPEG. */
export const IMAGE_FORMAT: Record<ImageKind, { extension: 'jpg' | 'png'; contentType: string }> = {
  location: { extension: 'jpg', contentType: 'image/jpeg' },
  'campaign-image': { extension: 'jpg', contentType: 'image/jpeg' },
  'campaign-icon': { extension: 'png', contentType: 'image/png' },
  'menu-item': { extension: 'jpg', contentType: 'image/jpeg' },
};

/** What an image belongs to. */
export type ImageSubject =
  | { kind: 'location'; locationId: number }
  | { kind: 'campaign-image' | 'campaign-icon'; campaignId: number }
  | { kind: 'menu-item'; menuId: number; itemId: number };

/** The subject's name in keys: `location#5`, `campaign-image#3`, `menu-item#2#41`. */
export function subjectName(subject: ImageSubject): string {
  switch (subject.kind) {
    case 'location':
      return `location#${subject.locationId}`;
    case 'campaign-image':
    case 'campaign-icon':
      return `${subject.kind}#${subject.campaignId}`;
    case 'menu-item':
      return `menu-item#${subject.menuId}#${subject.itemId}`;
  }
}

/** A variant's name: `320x212@1.5x`. */
export function variantName(width: number, height: number, density: number): string {
  return `${width}x${height}@${density}x`;
}

export interface Variant {
  name: string;
  width: number;
  height: number;
  density: number;
  /** Pixels of the stored file. */
  pixelWidth: number;
  pixelHeight: number;
}

export function variantsOf(kind: ImageKind): Variant[] {
  return IMAGE_SIZES[kind].flatMap((size) =>
    size.densities.map((density) => ({
      name: variantName(size.width, size.height, density),
      width: size.width,
      height: size.height,
      density,
      pixelWidth: Math.round(size.width * density),
      pixelHeight: Math.round(size.height * density),
    })),
  );
}

/** The object key of one variant of one upload (a new version per upload: a signed URL never shows a half-replaced image). */
export function objectKey(subject: ImageSubject, version: string, variant: string): string {
  return `${IMAGE_KEY_PREFIX}${subjectName(subject).replaceAll('#', '/')}/${version}/${variant}.${IMAGE_FORMAT[subject.kind].extension}`;
}

interface ImageAttributes {
  subject: string;
  kind: ImageKind;
  version: string;
  /** Object keys by variant name. */
  objects: Record<string, string>;
  content_type: string;
  uploaded_at: string;
}

/** The stored image of one subject (`location#5`, `campaign-image#3`, ...): its variants' object keys. */
const Image = defineEntity<ImageAttributes>()({ entity: 'Image', key: keys.image });
export type ImageItem = EntityItem<typeof Image>;

export async function getImage(subject: ImageSubject): Promise<ImageItem | undefined> {
  return Image.at(subjectName(subject)).get({ consistent: false });
}

/** A subject's image as stored: its variants' object keys under one version. */
function imageAttributes(subject: ImageSubject, version: string, objects: Record<string, string>): ImageAttributes {
  return {
    subject: subjectName(subject),
    kind: subject.kind,
    version,
    objects,
    content_type: IMAGE_FORMAT[subject.kind].contentType,
    uploaded_at: isoSeconds(),
  };
}

/** Records a finished upload (every variant already stored); returns the item it replaced, whose objects the caller deletes. */
export async function recordImage(subject: ImageSubject, version: string, objects: Record<string, string>): Promise<ImageItem | undefined> {
  const item = imageAttributes(subject, version, objects);
  const result = await db().send(new PutCommand({ ...Image.at(item.subject).put(item).Put, ReturnValues: 'ALL_OLD' }));
  return Image.from(result.Attributes);
}

/**
 * Where a request for one size goes: a signed URL of the stored variant, or undefined (404) when the size
 * or density is not one of the kind's, or nothing was uploaded for the subject. Densities compare as
 * numbers (`2`, `2.0` and `2.000000` are the same).
 */
export async function imageLocation(subject: ImageSubject, size: { width: number; height: number; density: number }): Promise<string | undefined> {
  const known = IMAGE_SIZES[subject.kind].find((candidate) => candidate.width === size.width && candidate.height === size.height);
  const density = known?.densities.find((candidate) => Math.abs(candidate - size.density) < 1e-9);
  if (!known || density === undefined) return undefined;
  const image = await getImage(subject);
  const key = image?.objects[variantName(known.width, known.height, density)];
  return key ? signedImageUrl(key) : undefined;
}

/**
 * The Put of a subject's new image for a transaction: it replaces exactly the item read (`previousVersion`, or none),
 * so a concurrent upload of the same subject is never silently overwritten (the caller reads again and retries).
 */
export function imageRecordPut(subject: ImageSubject, version: string, objects: Record<string, string>, previousVersion: string | undefined) {
  const item = imageAttributes(subject, version, objects);
  return Image.at(item.subject).put(item, previousVersion === undefined ? itemIsNew : equals('version', previousVersion));
}

/** The subject's image as stored now (a strongly consistent read: what a replacement conditions on). */
export function getImageNow(subject: ImageSubject): Promise<ImageItem | undefined> {
  return Image.at(subjectName(subject)).get({ consistent: true });
}
