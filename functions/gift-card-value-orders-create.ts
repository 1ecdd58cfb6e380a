import { apiHandler, requireUser } from '#shared/http/handler.ts';
import { idempotentCommit } from '#shared/http/idempotency.ts';
import { orderGiftCardValue, serializeGiftCardValueOrder } from '#shared/domain/money/gift-card-orders.ts';
import { giftCardValueOrderBody } from '#shared/schemas/money.ts';

/**
 * POST /v15/users/gift_card_value_orders (iOS, PowerShell): the user buys gift card value at a merchant for
 * someone by email; the buyer's card is charged once, the recipient's value at the merchant goes up (or is held
 * for their email until they sign up: the same answer either way), the recipient is emailed. An
 * Idempotency-Key makes a retry answer the first order; the buyer's orders are rate-limited (429).
 */
export const handler = apiHandler(
  'gift-card-value-orders-create',
  { body: giftCardValueOrderBody, bodyObject: 'gift_card_value_order', summary: 'Buy gift card value for someone (by email)' },
  async (request) => {
    const user = requireUser(request);
    return idempotentCommit(request, serializeGiftCardValueOrder, (storeResponse) =>
      orderGiftCardValue(user, request.body.gift_card_value_order, storeResponse),
    );
  },
);
