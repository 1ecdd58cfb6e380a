import * as z from 'zod';
import { apiHandler, ok, requireMerchant } from '#shared/http/handler.ts';
import { unauthorized } from '#shared/errors.ts';
import { addGiftCardValue } from '#shared/domain/gift-cards.ts';
import { giftCardValueAdditionResponse } from '#shared/schemas/money.ts';

const params = z.object({ merchant_id: z.string().regex(/^\d+$/).transform(Number) });

const body = z.object({
  gift_card_value_addition: z.object({
    payment_token_data: z.string().max(255),
    value_amount: z.number().int(),
    location_id: z.number().int().nullish(),
    order_uuid: z.string().max(255).nullish(),
    tender_types: z.array(z.string().max(64)).max(20).nullish(),
    type: z.string().max(64).nullish(),
    identifier_from_merchant: z.string().max(255).nullish(),
    external_identifier: z.string().max(255).nullish(),
  }),
});

/** POST /v15/merchants/:merchant_id/gift_card_value_additions: load value onto the QR code holder's gift card. */
export const handler = apiHandler('gift-card-value-additions-create', { responses: { 200: giftCardValueAdditionResponse }, summary: 'Add gift card value', params, body, bodyObject: 'gift_card_value_addition' }, async (request) => {
  const merchant = requireMerchant(request);
  if (merchant.merchantId !== request.params.merchant_id) {
    throw unauthorized('Not authorized to add gift card value for this merchant.', 'gift_card_value_addition', 'merchant_token');
  }
  const addition = request.body.gift_card_value_addition;
  return ok(
    await addGiftCardValue({
      merchantId: merchant.merchantId,
      paymentTokenData: addition.payment_token_data,
      valueAmount: addition.value_amount,
      externalIdentifier: addition.external_identifier,
      locationId: addition.location_id,
      orderUuid: addition.order_uuid,
      tenderTypes: addition.tender_types,
      type: addition.type,
      identifierFromMerchant: addition.identifier_from_merchant,
    }),
  );
});
