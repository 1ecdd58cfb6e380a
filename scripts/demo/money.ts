/**
 * Money demo data: the demo merchant asks for a manager confirmation code on refunds, the first demo
 * user holds gift card value and merchant-funded credit there, and has one completed in-store order
 * (so GET /v15/apps/orders and a refund have something to show).
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, table } from '#shared/db/client.ts';
import { keys } from '#shared/db/keys.ts';
import { addGiftCardValue } from '#shared/domain/money/gift-cards.ts';
import { addCredit } from '#shared/domain/money/ledger.ts';
import { completeProposedOrder, proposeOrder } from '#shared/domain/orders/proposals.ts';
import { completedOrderBody, giftCardValueAdditionBody, proposedOrderBody } from '#shared/schemas/money.ts';
import { isoSeconds } from '#shared/time.ts';
import type { DemoContext } from './context.ts';

export const DEMO_MANAGER_CONFIRMATION = '87168';

export async function seedMoney(context: DemoContext): Promise<Record<string, unknown>> {
  const merchantId = context.merchant.id;
  await db().send(
    new UpdateCommand({
      TableName: table(),
      Key: keys.merchant(merchantId),
      UpdateExpression: 'SET manager_confirmation = :code, updated_at = :now',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':code': DEMO_MANAGER_CONFIRMATION, ':now': isoSeconds() },
    }),
  );
  context.progress('money: manager confirmation set', { merchant_id: merchantId });

  const holder = context.users.find((user) => user.has_card) ?? context.users[0]!;
  // Requests as a POS sends them, parsed by the endpoints' own schemas.
  const addition = await addGiftCardValue(
    merchantId,
    giftCardValueAdditionBody.parse({
      gift_card_value_addition: {
        payment_token_data: holder.payment_token_data,
        value_amount: 2500,
        external_identifier: 'demo-gift-card-load-1',
        tender_types: ['cash'],
      },
    }).gift_card_value_addition,
  );
  await addCredit({ userId: holder.id, merchantId, amount: 500, entryId: 'demo:welcome-credit', reference: { reason: 'demo' } });
  context.progress('money: gift card value and credit loaded', {
    user_id: holder.id,
    value_at_merchant_amount: addition.gift_card_value_addition.new_value_at_merchant_amount,
  });

  const locationId = context.merchant.location_ids[0]!;
  const check = {
    location_id: locationId,
    payment_token_data: holder.payment_token_data,
    spend_amount: 1250,
    tax_amount: 80,
    items: [
      {
        item: {
          name: 'Latte',
          description: '16oz oat latte',
          quantity: 1,
          charged_price_amount: 550,
          standard_price_amount: 550,
          sku: 'LATTE-16',
          category: 'Coffee',
        },
      },
    ],
  };
  const proposed = await proposeOrder({ merchantId, appId: context.app.id }, proposedOrderBody.parse({ proposed_order: check }).proposed_order);
  const order = await completeProposedOrder(
    merchantId,
    completedOrderBody.parse({ completed_order: { ...check, proposed_order_uuid: proposed.uuid, tip_amount: 200, identifier_from_merchant: 'DEMO-1' } })
      .completed_order,
  );
  context.progress('money: demo order completed', { order_uuid: order.uuid });

  return {
    merchant: { manager_confirmation: DEMO_MANAGER_CONFIRMATION },
    money: {
      gift_card_holder_user_id: holder.id,
      value_at_merchant_amount: addition.gift_card_value_addition.new_value_at_merchant_amount - order.gift_card_total_amount,
      credit_at_merchant_amount: 500,
      completed_order_uuid: order.uuid,
    },
  };
}
