import { apiHandler, ok, requireMerchant } from '#shared/http/handler.ts';
import { customerCreditAtLocation } from '#shared/domain/pos/credit-checks.ts';
import { giftCardCreditBody, locationParams } from '#shared/schemas/pos-money.ts';

/** POST /v15/locations/:location_id/get_merchant_funded_gift_card_credit: the QR code's gift card value at the location's merchant (a tender). */
export const handler = apiHandler(
  'locations-gift-card-credit-create',
  { summary: 'Gift card value at a location', params: locationParams, body: giftCardCreditBody, bodyObject: 'get_merchant_funded_gift_card_credit' },
  async (request) => {
    const merchant = requireMerchant(request);
    const credit = await customerCreditAtLocation(merchant.merchantId, request.params.location_id, {
      paymentTokenData: request.body.get_merchant_funded_gift_card_credit.payment_token_data,
    });
    return ok({ merchant_funded_gift_card_credit: { total_amount: credit.giftCard } });
  },
);
