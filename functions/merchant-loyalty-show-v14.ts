import * as z from '#shared/schemas/zod.ts';
import { apiHandler, ok, requireUser } from '#shared/http/handler.ts';
import { merchantLoyalty } from '#shared/domain/loyalty/merchant-loyalty.ts';
import { pathId } from '#shared/schemas/params.ts';

/** GET /v14/merchants/{merchant_id}/loyalty: the v15 record at the path the C# SDK calls (it allows only v14). */
const params = z.object({ merchant_id: pathId });

export const handler = apiHandler('merchant-loyalty-show-v14', { summary: "The user's loyalty record at a merchant (v14 path)", params }, async (request) =>
  ok(await merchantLoyalty(requireUser(request).userId, request.params.merchant_id)),
);
