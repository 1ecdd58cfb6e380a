import { apiHandler, ok, requireStaff } from '#shared/http/handler.ts';
import { IMAGE_UPLOAD_NOT_FOUND, getImageUpload, imageUploadView } from '#shared/domain/merchants/location-image-uploads.ts';
import { imageUploadParams } from '#shared/schemas/location-images.ts';

/** GET /v15/merchants/:merchant_id/locations/:location_id/image_uploads/:upload_id (owner, manager): the upload's state, for the console's progress. */
export const handler = apiHandler(
  'location-image-uploads-show',
  {
    summary: "An upload of the location's picture: pending, ready or failed with its reason (owner, manager)",
    description: 'Another location\'s or merchant\'s upload, or an id of none: 404 image_upload/id/not_found. See docs/merchant-api.md, "Locations: images".',
    params: imageUploadParams,
    notFound: IMAGE_UPLOAD_NOT_FOUND,
  },
  async (request) => {
    const actor = requireStaff(request);
    return ok(imageUploadView(await getImageUpload(actor.merchantId, request.params.location_id, request.params.upload_id)));
  },
);
