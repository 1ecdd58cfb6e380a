import * as z from '#shared/schemas/zod.ts';
import { apiHandler } from '#shared/http/handler.ts';
import { interstitialNotFound, serveInterstitial } from '#shared/endpoints/app-surface.ts';

const params = z.object({ uuid: z.string().check(z.minLength(1), z.maxLength(64)) });

/**
 * GET /v15/orders/:uuid/interstitial — the screen the merchant shows after this order of the user's (claim,
 * feedback, share, url or no_action). No interstitial, or not the user's order: 404 with the documented error.
 */
export const handler = apiHandler(
  'orders-interstitial-show',
  { summary: 'Get the interstitial shown after an order', params, notFound: interstitialNotFound },
  serveInterstitial,
);
