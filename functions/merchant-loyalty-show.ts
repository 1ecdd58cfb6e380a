import * as z from '#shared/schemas/zod.ts';
import { apiHandler, ok, requireUser } from '#shared/http/handler.ts';
import { merchantLoyalty } from '#shared/domain/loyalty/merchant-loyalty.ts';
import { pathId } from '#shared/schemas/params.ts';

/**
 * GET /v15/merchants/{merchant_id}/loyalty (iOS, Android; /v14 for the C# SDK: merchant-loyalty-show-v14.ts):
 * the user's loyalty record at the merchant. No history there is a zero-valued record; an unknown merchant 404.
 */
const params = z.object({ merchant_id: pathId });

export const handler = apiHandler('merchant-loyalty-show', { summary: "The user's loyalty record at a merchant", params }, async (request) =>
  ok(await merchantLoyalty(requireUser(request).userId, request.params.merchant_id)),
);
