import { apiHandler, requireMerchantOfPath } from '#shared/http/handler.ts';
import { idempotentCommit } from '#shared/http/idempotency.ts';
import { auditContextOf } from '#shared/domain/audit/audit-log.ts';
import { removeGiftCardValue, type GiftCardRemovalResponse } from '#shared/domain/pos/gift-card-removals.ts';
import { giftCardValueRemovalBody, merchantParams } from '#shared/schemas/pos-money.ts';

/** POST /v15/merchants/:merchant_id/gift_card_value_removals: take value off the QR code holder's gift card, by amount or reversing an addition. */
export const handler = apiHandler(
  'gift-card-value-removals-create',
  { summary: 'Remove gift card value', params: merchantParams, body: giftCardValueRemovalBody, bodyObject: 'gift_card_value_removal' },
  async (request) => {
    const merchant = requireMerchantOfPath(request, 'Not authorized to remove gift card value for this merchant.', 'gift_card_value_removal');
    return idempotentCommit(
      request,
      (response: GiftCardRemovalResponse) => response,
      (storeResponse) =>
        removeGiftCardValue({ merchantId: merchant.merchantId, removal: request.body.gift_card_value_removal, audit: auditContextOf(request), storeResponse }),
    );
  },
);
