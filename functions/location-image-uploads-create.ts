import { apiHandler, requireStaff } from '#shared/http/handler.ts';
import { idempotent } from '#shared/http/idempotency.ts';
import { auditContextOf } from '#shared/domain/audit/audit-log.ts';
import { LOCATION_NOT_FOUND } from '#shared/domain/merchants/location-settings.ts';
import { createImageUpload } from '#shared/domain/merchants/location-image-uploads.ts';
import { imageUploadCreateBody } from '#shared/schemas/location-images.ts';
import { merchantLocationParams } from '#shared/schemas/location-settings.ts';

/** POST /v15/merchants/:merchant_id/locations/:location_id/image_uploads (owner, manager): a pending upload and its presigned POST. */
export const handler = apiHandler(
  'location-image-uploads-create',
  {
    summary: "Start an upload of the location's picture: a presigned POST to S3 (owner, manager)",
    description:
      'Answers 201 with the upload (`pending`) and `upload`: POST its `fields`, then the file as `file`, to its `url` (multipart/form-data) before `expires_at`. S3 refuses another Content-Type than the one declared, an empty file or one over `max_bytes`. The file is then resized to every documented size; poll the upload until `ready` (the location shows it) or `failed` (with its reason). See docs/merchant-api.md, "Locations: images".',
    body: imageUploadCreateBody,
    bodyObject: 'image_upload',
    params: merchantLocationParams,
    notFound: LOCATION_NOT_FOUND,
  },
  (request) => {
    const actor = requireStaff(request);
    const context = auditContextOf(request);
    return idempotent(request, async (idempotency) => {
      const view = await createImageUpload({
        actor,
        context,
        locationId: request.params.location_id,
        contentType: request.body.image_upload.content_type,
        storeResponse: (created) => idempotency.storeResponse({ status: 201, body: created }),
      });
      return { status: 201, body: view };
    });
  },
);
