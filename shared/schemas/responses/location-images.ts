/** A merchant's upload of a location's picture (the requests: shared/schemas/location-images.ts). */
import * as z from '#shared/schemas/zod.ts';
import { UPLOAD_CONTENT_TYPES, UPLOAD_FAILURES, UPLOAD_STATES } from '#shared/schemas/location-images.ts';
import { integerId, timestamp } from './common.ts';
import { resource } from './registry.ts';

const uploadFields = {
  id: z.string().check(z.describe('The upload id (32 hexadecimal digits)')),
  merchant_id: integerId,
  location_id: integerId,
  state: z.enum(UPLOAD_STATES).check(z.describe('pending until S3 has the file and it is processed; then ready (the location shows it) or failed')),
  content_type: z.enum(UPLOAD_CONTENT_TYPES),
  failure: z.nullable(z.object({ reason: z.enum(UPLOAD_FAILURES), message: z.string().check(z.describe('What to do, in words for the merchant')) })),
  image_version: z.nullable(z.string()).check(z.describe("The location's image version this upload made (ready only)")),
  created_at: timestamp,
  updated_at: timestamp,
};

export const imageUploadResponse = resource('ImageUpload', 'image_upload', uploadFields);

export const imageUploadCreatedResponse = resource('ImageUploadCreated', 'image_upload', {
  ...uploadFields,
  upload: z
    .object({
      url: z.string().check(z.describe("The form's action: POST the fields, then the file as `file`, as multipart/form-data")),
      fields: z.record(z.string(), z.string()),
      max_bytes: integerId,
      expires_at: timestamp,
    })
    .check(z.describe('The presigned POST: S3 refuses another key, another Content-Type, an empty or larger file, or a late one')),
});
