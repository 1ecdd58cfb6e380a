import { apiHandler } from '#shared/http/handler.ts';
import { merchantFundedCreditSpec, serveMerchantFundedCredit } from '#shared/endpoints/pos-credit.ts';

/** POST /v14/locations/:location_id/merchant_funded_credit with a credit_query: credit a POS can apply (deprecated; still called). */
export const handler = apiHandler(
  'locations-merchant-funded-credit-query-v14',
  { ...merchantFundedCreditSpec, summary: 'Credit to apply at a POS, with items', deprecated: true },
  serveMerchantFundedCredit,
);
