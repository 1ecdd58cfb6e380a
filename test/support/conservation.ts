import { randomUUID } from 'node:crypto';
import { addCreditCard } from '#shared/domain/credit-cards.ts';
import { appFixture, merchantFixture, userFixture } from './fixtures.ts';
import { locationFixture } from './locations.ts';
import type { TestApi } from './api.ts';

/**
 * Two merchants (each with a location) and two customers with valid cards, all of one app: the parties of the
 * conservation model, with one call per money operation it draws.
 */
export async function conservationWorld(api: TestApi) {
  const { app } = await appFixture({ global: true });
  const merchants = await Promise.all([0, 1].map(async () => {
    const merchant = await merchantFixture(app.app_id);
    return { ...merchant, location: await locationFixture(merchant.merchant.merchant_id) };
  }));
  const customers = await Promise.all([0, 1].map(async () => {
    const user = await userFixture(app.app_id);
    await addCreditCard(user.user.user_id, `fake-valid-nonce-${randomUUID()}`);
    return user;
  }));
  const m = (index: number) => merchants[index]!;
  const c = (index: number) => customers[index]!;
  return {
    merchantId: (index: number) => m(index).merchant.merchant_id,
    userId: (index: number) => c(index).user.user_id,
    load: (merchant: number, customer: number, amount: number) =>
      api.call('POST', `/v15/merchants/${m(merchant).merchant.merchant_id}/gift_card_value_additions`, {
        token: m(merchant).token,
        body: { gift_card_value_addition: { payment_token_data: c(customer).user.payment_token_data, value_amount: amount } },
      }),
    remove: (merchant: number, customer: number, amount: number) =>
      api.call('POST', `/v15/merchants/${m(merchant).merchant.merchant_id}/gift_card_value_removals`, {
        token: m(merchant).token,
        body: { gift_card_value_removal: { payment_token_data: c(customer).user.payment_token_data, value_amount: amount } },
      }),
    async order(merchant: number, customer: number, spend: number) {
      const common = { location_id: m(merchant).location.location_id, payment_token_data: c(customer).user.payment_token_data, spend_amount: spend, tax_amount: 0, partial_authorization_allowed: false };
      const proposed = await api.call('POST', '/v15/proposed_orders', { token: m(merchant).token, body: { proposed_order: { ...common, exemption_amount: 0, items: [] } } });
      if (proposed.status !== 200) return proposed;
      return api.call('POST', '/v15/completed_orders', {
        token: m(merchant).token,
        body: { completed_order: { ...common, proposed_order_uuid: proposed.body.proposed_order.uuid, applied_discount_amount: 0 } },
      });
    },
    refund: (merchant: number, uuid: string) => api.call('POST', `/v15/orders/${uuid}/refund`, { token: m(merchant).token }),
    detachedRefund: (merchant: number, customer: number, amount: number) =>
      api.call('POST', '/v15/detached_refunds', {
        token: m(merchant).token,
        body: { detached_refund: { credit_amount: amount, location_id: m(merchant).location.location_id, payment_token_data: c(customer).user.payment_token_data, manager_confirmation: null, identifier_from_merchant: null } },
      }),
  };
}

export type ConservationWorld = Awaited<ReturnType<typeof conservationWorld>>;
