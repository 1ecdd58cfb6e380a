import { apiHandler, requireMerchantOfPath } from '#shared/http/handler.ts';
import { idempotentCommit } from '#shared/http/idempotency.ts';
import { addGiftCardValue } from '#shared/domain/money/gift-cards.ts';
import { giftCardValueAdditionBody, giftCardValueAdditionParams } from '#shared/schemas/money.ts';

/** POST /v15/merchants/:merchant_id/gift_card_value_additions: load value onto the QR code holder's gift card. */
export const handler = apiHandler(
  'gift-card-value-additions-create',
  { summary: 'Add gift card value', params: giftCardValueAdditionParams, body: giftCardValueAdditionBody, bodyObject: 'gift_card_value_addition' },
  async (request) => {
    const merchant = requireMerchantOfPath(request, 'Not authorized to add gift card value for this merchant.', 'gift_card_value_addition');
    const addition = request.body.gift_card_value_addition;
    return idempotentCommit(
      request,
      (response) => response,
      (storeResponse) => addGiftCardValue(merchant.merchantId, addition, storeResponse),
    );
  },
);
