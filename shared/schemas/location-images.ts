/** A merchant's upload of a location's picture (docs/merchant-api.md, "Locations: images"; answers: responses/location-images.ts). */
import * as z from '#shared/schemas/zod.ts';
import { pathId } from './params.ts';

/** The picture types an upload may declare (what sharp reads in every build, the Lambda's included). */
export const UPLOAD_CONTENT_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export type UploadContentType = (typeof UPLOAD_CONTENT_TYPES)[number];

export const UPLOAD_STATES = ['pending', 'ready', 'failed'] as const;
export type UploadState = (typeof UPLOAD_STATES)[number];
/** Why an upload failed, each with a message the merchant reads. */
export const UPLOAD_FAILURES = ['not_an_image', 'unsupported_format', 'too_many_pixels', 'too_large', 'location_gone'] as const;
export type UploadFailure = (typeof UPLOAD_FAILURES)[number];

/** POST /v15/merchants/:merchant_id/locations/:location_id/image_uploads */
export const imageUploadCreateBody = z.object({
  image_upload: z.object({
    content_type: z.enum(UPLOAD_CONTENT_TYPES).check(z.describe('The Content-Type the file will be sent with; the presigned POST allows only it')),
  }),
});

/** An upload's id: 32 hexadecimal digits. */
export const imageUploadParams = z.object({
  merchant_id: pathId,
  location_id: pathId,
  upload_id: z.string().check(z.regex(/^[0-9a-f]{32}$/)),
});
