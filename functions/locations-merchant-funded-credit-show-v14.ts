import { apiHandler } from '#shared/http/handler.ts';
import { merchantFundedCreditSpec, serveMerchantFundedCredit } from '#shared/endpoints/pos-credit.ts';

/** GET /v14/locations/:location_id/merchant_funded_credit?payment_token_data=: credit a POS can apply for the QR code's customer (deprecated; still called). */
export const handler = apiHandler(
  'locations-merchant-funded-credit-show-v14',
  { ...merchantFundedCreditSpec, summary: 'Credit to apply at a POS', deprecated: true },
  serveMerchantFundedCredit,
);
