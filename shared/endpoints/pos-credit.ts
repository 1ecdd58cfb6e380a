/**
 * The credit checks served at two versions each (sdk-operations P4, P5): the spec and the serving
 * function, shared by the v15 and v14 handlers (functions/locations-credit-*.ts,
 * functions/locations-merchant-funded-credit-*.ts).
 */
import type * as z from '#shared/schemas/zod.ts';
import { customerCreditAtLocation, locationCredit } from '#shared/domain/pos/credit-checks.ts';
import { ok, requireMerchant, type ApiRequest } from '#shared/http/handler.ts';
import { locationParams, merchantFundedCreditBody, merchantFundedCreditQuery } from '#shared/schemas/pos-money.ts';

// 409: expiring a due grant kept losing races on the balance (shared/domain/money/credit.ts `expireCredit`).
export const locationCreditSpec = { params: locationParams };

/** A user's potential credit at a location; without a user token (v14) a new user's: 0. */
export async function serveLocationCredit(request: ApiRequest<undefined, undefined, z.output<typeof locationParams>>) {
  const credit = await locationCredit(request.params.location_id, request.credentials.user?.userId);
  return ok({ credit: { total_amount: credit.total, merchant_funded_credit_amount: credit.merchantFunded } });
}

export const merchantFundedCreditSpec = {
  params: locationParams,
  query: merchantFundedCreditQuery,
  body: merchantFundedCreditBody,
  bodyObject: 'credit_query',
};

type MerchantFundedCreditRequest = ApiRequest<
  z.output<typeof merchantFundedCreditBody>,
  z.output<typeof merchantFundedCreditQuery>,
  z.output<typeof locationParams>
>;

/**
 * Credit a POS can apply for the customer the QR code names (query string on GET, `credit_query` body on
 * POST, either on the C# SDK's POST) or whose user token comes with the merchant's.
 */
export async function serveMerchantFundedCredit(request: MerchantFundedCreditRequest) {
  const merchant = requireMerchant(request);
  const credit = await customerCreditAtLocation(merchant.merchantId, request.params.location_id, {
    paymentTokenData: request.body.credit_query?.payment_token_data ?? request.query.payment_token_data,
    user: request.credentials.user,
  });
  return ok({
    merchant_funded_credit: {
      discount_amount: credit.merchantFunded,
      gift_card_amount: credit.giftCard,
      total_amount: credit.merchantFunded + credit.giftCard,
    },
  });
}
