import * as z from 'zod';
import { apiHandler, ok } from '#shared/http/handler.ts';
import { notFound } from '#shared/errors.ts';
import { listRewards } from '#shared/domain/loyalty/rewards.ts';
import { rewardList } from '#shared/schemas/loyalty.ts';

/**
 * GET /v15/merchants/{merchant_id}/rewards: with a user token that user's rewards at the merchant,
 * without one what a new user would see. lat/lng pick the nearest location's time zone for usable_now;
 * transfer_supported blank or false leaves out rewards that must be transferred.
 */
const optional = <T extends z.ZodType>(schema: T) => z.preprocess((value) => (value === '' ? undefined : value), schema.optional());
const decimal = z.string().trim().regex(/^[-+]?(\d+\.?\d*|\.\d+)$/, 'must be a number').transform(Number);

const query = z
  .object({
    lat: optional(decimal.pipe(z.number().min(-90, 'must be between -90 and 90').max(90, 'must be between -90 and 90'))),
    lng: optional(decimal.pipe(z.number().min(-180, 'must be between -180 and 180').max(180, 'must be between -180 and 180'))),
    transfer_supported: optional(z.enum(['true', 'false', '1', '0'], { message: 'must be true or false' }).transform((value) => value === 'true' || value === '1')),
  })
  .superRefine((value, context) => {
    if ((value.lat === undefined) !== (value.lng === undefined)) {
      const missing = value.lat === undefined ? 'lat' : 'lng';
      context.addIssue({ code: 'custom', path: [missing], message: `is required together with ${missing === 'lat' ? 'lng' : 'lat'}` });
    }
  });

const params = z.object({ merchant_id: z.string() });

export const handler = apiHandler('merchant-rewards-list', { responses: { 200: rewardList }, summary: "List a user's rewards at a merchant", query, params }, async (request) => {
  // A merchant id that is not a number names no merchant: 404 with an empty body, like an unknown one.
  if (!/^\d{1,15}$/.test(request.params.merchant_id)) throw notFound();
  const rewards = await listRewards(Number(request.params.merchant_id), request.credentials.user?.userId, {
    lat: request.query.lat,
    lng: request.query.lng,
    transferSupported: request.query.transfer_supported ?? false,
  });
  return ok(rewards);
});
