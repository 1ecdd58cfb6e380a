import { apiHandler } from '#shared/http/handler.ts';
import { locationCreditSpec, serveLocationCredit } from '#shared/endpoints/pos-credit.ts';

/** GET /v14/locations/:location_id/credit: as v15; without a token, the credit a new user would have (0). */
export const handler = apiHandler(
  'locations-credit-show-v14',
  { ...locationCreditSpec, summary: "A user's credit at a location (v14: token optional)" },
  serveLocationCredit,
);
