import { apiHandler } from '#shared/http/handler.ts';
import { locationCreditSpec, serveLocationCredit } from '#shared/endpoints/pos-credit.ts';

/** GET /v15/locations/:location_id/credit: the user's credit at a location (merchant-funded credit plus gift card value). */
export const handler = apiHandler('locations-credit-show', { ...locationCreditSpec, summary: "A user's credit at a location" }, serveLocationCredit);
