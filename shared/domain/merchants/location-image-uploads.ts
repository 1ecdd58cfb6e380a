/**
 * A merchant's upload of a location's picture (docs/merchant-api.md, "Locations: images"). The create route records
 * the upload `pending` and answers a presigned POST to `uploads/merchants/<m>/locations/<l>/<upload id>`; the browser
 * sends the file straight to S3, whose ObjectCreated event runs the processing function
 * (location-image-processing.ts), which resizes it (sharp), records the location's new image version and marks the
 * upload `ready` or `failed`. The API never receives the picture's bytes.
 */
import type { TransactItem } from '#shared/db/transactions.ts';
import { transactWrite } from '#shared/db/transactions.ts';
import { defineEntity, type EntityItem } from '#shared/db/entity.ts';
import { keys } from '#shared/db/keys.ts';
import { newUuid } from '#shared/db/ids.ts';
import { errorDetail, notFound } from '#shared/errors.ts';
import { presignedUpload, UPLOAD_KEY_PREFIX, type PresignedUpload } from '#shared/images/store.ts';
import { epochSeconds, isoSeconds } from '#shared/time.ts';
import type { AuditContext } from '#shared/domain/audit/audit-log.ts';
import type { StaffActor } from '#shared/auth/roles.ts';
import type { UploadContentType, UploadFailure, UploadState } from '#shared/schemas/location-images.ts';
import { getMerchantLocation } from './location-settings.ts';

/** sharp's format names of the same types: a file whose bytes are another format fails, whatever it declared. */
export const UPLOAD_FORMATS = ['jpeg', 'png', 'webp'] as const;

/** The largest upload S3 accepts (the policy's content-length-range; the processing checks it again). */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;
/** How long the presigned POST is valid: the browser sends the file at once. */
export const UPLOAD_EXPIRES_SECONDS = 10 * 60;
/** How long an upload's state is kept for the console's progress (DynamoDB TTL deletes it after). */
const UPLOAD_RETENTION_SECONDS = 7 * 24 * 60 * 60;

export interface ImageUploadAttributes {
  upload_id: string;
  merchant_id: number;
  location_id: number;
  /** The S3 key the presigned POST allows, and the only one the processing accepts for this upload. */
  object_key: string;
  content_type: UploadContentType;
  state: UploadState;
  failure_reason: UploadFailure | null;
  failure_message: string | null;
  /** The location's image version this upload made (ready only). */
  image_version: string | null;
  /** Who uploaded, from where: the processing writes the audit entry with it. */
  audit: AuditContext;
  upload_expires_at: string;
  created_at: string;
  updated_at: string;
  ttl: number;
}

export const ImageUpload = defineEntity<ImageUploadAttributes>()({ entity: 'ImageUpload', key: keys.imageUpload });
export type ImageUploadItem = EntityItem<typeof ImageUpload>;

export const IMAGE_UPLOAD_NOT_FOUND = () => notFound(errorDetail('image_upload', 'id', 'This location has no upload with this id.', 'not_found'));

/** The key of an upload's object: it names the merchant, the location and the upload (the processing reads all three back). */
export function uploadObjectKey(merchantId: number, locationId: number, uploadId: string): string {
  return `${UPLOAD_KEY_PREFIX}merchants/${merchantId}/locations/${locationId}/${uploadId}`;
}

const UPLOAD_KEY = /^uploads\/merchants\/(\d{1,10})\/locations\/(\d{1,10})\/([0-9a-f]{32})$/;

/** The merchant, location and upload an object key names, or undefined for any other key. */
export function parseUploadObjectKey(key: string): { merchantId: number; locationId: number; uploadId: string } | undefined {
  const match = UPLOAD_KEY.exec(key);
  return match ? { merchantId: Number(match[1]), locationId: Number(match[2]), uploadId: match[3]! } : undefined;
}

export function imageUploadView(upload: ImageUploadItem, form?: PresignedUpload) {
  return {
    image_upload: {
      id: upload.upload_id,
      merchant_id: upload.merchant_id,
      location_id: upload.location_id,
      state: upload.state,
      content_type: upload.content_type,
      failure: upload.failure_reason ? { reason: upload.failure_reason, message: upload.failure_message ?? '' } : null,
      image_version: upload.image_version,
      created_at: upload.created_at,
      updated_at: upload.updated_at,
      ...(form ? { upload: { url: form.url, fields: form.fields, max_bytes: MAX_UPLOAD_BYTES, expires_at: upload.upload_expires_at } } : {}),
    },
  };
}

export type ImageUploadView = ReturnType<typeof imageUploadView>;

/**
 * A new pending upload of the location's picture and its presigned POST (the location must be the merchant's: 404
 * otherwise). The upload item commits with the Idempotency-Key's stored answer.
 */
export async function createImageUpload(input: {
  actor: StaffActor;
  context: AuditContext;
  locationId: number;
  contentType: UploadContentType;
  storeResponse: (view: ImageUploadView) => TransactItem | undefined;
}): Promise<ImageUploadView> {
  await getMerchantLocation(input.actor.merchantId, input.locationId);
  const uploadId = newUuid();
  const now = new Date();
  const objectKey = uploadObjectKey(input.actor.merchantId, input.locationId, uploadId);
  const upload: ImageUploadAttributes = {
    upload_id: uploadId,
    merchant_id: input.actor.merchantId,
    location_id: input.locationId,
    object_key: objectKey,
    content_type: input.contentType,
    state: 'pending',
    failure_reason: null,
    failure_message: null,
    image_version: null,
    audit: input.context,
    upload_expires_at: isoSeconds(new Date(now.getTime() + UPLOAD_EXPIRES_SECONDS * 1000)),
    created_at: isoSeconds(now),
    updated_at: isoSeconds(now),
    ttl: epochSeconds(now) + UPLOAD_RETENTION_SECONDS,
  };
  const form = await presignedUpload(objectKey, {
    contentType: input.contentType,
    minBytes: 1,
    maxBytes: MAX_UPLOAD_BYTES,
    expiresSeconds: UPLOAD_EXPIRES_SECONDS,
  });
  const view = imageUploadView(ImageUpload.at(uploadId).item(upload), form);
  const stored = input.storeResponse(view);
  const outcome = await transactWrite(() => [ImageUpload.at(uploadId).putNew(upload), ...(stored ? [stored] : [])]);
  if (!outcome.committed) throw new Error(`image upload ${uploadId} not recorded: ${outcome.reasons.join(', ')}`);
  return view;
}

/** One upload of the merchant's location: 404 when it is another location's, another merchant's or none. */
export async function getImageUpload(merchantId: number, locationId: number, uploadId: string): Promise<ImageUploadItem> {
  const upload = await ImageUpload.at(uploadId).get({ consistent: true });
  if (!upload || upload.merchant_id !== merchantId || upload.location_id !== locationId) throw IMAGE_UPLOAD_NOT_FOUND();
  return upload;
}
