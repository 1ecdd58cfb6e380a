import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { addCreditCard } from '#shared/domain/cards/credit-cards.ts';
import { SAMPLE_IDS } from '#shared/domain/order-ahead/sample-menu.ts';
import { SANDBOX_PROVIDERS } from '#shared/ordering/sandbox.ts';
import { SANDBOX_NONCES } from '#shared/payments/sandbox.ts';
import { appFixture, merchantFixture, userFixture } from './fixtures.ts';
import { campaignFixture } from './loyalty.ts';
import { orderAheadLocationFixture } from './order-ahead.ts';
import type { ApiCall, ApiResult } from './api.ts';

/** One HTTP request of the model, as data: the runner decides how it is sent (retries, Idempotency-Key, copies). */
export interface ModelRequest {
  method: string;
  path: string;
  options: ApiCall;
}

/**
 * Sends one logical request and answers its final response. The same `key` (an Idempotency-Key) on two sends makes
 * them the same request: a duplicate the API must answer once.
 */
export type Send = (request: ModelRequest, key?: string) => Promise<ApiResult>;

/** The customers' cards, by the sandbox gateway's behaviours: paid in full, up to 1500 a charge, always declined. */
export const CARD_NONCES = [SANDBOX_NONCES.valid, SANDBOX_NONCES.limitedFunds, SANDBOX_NONCES.declines] as const;
/** The merchants' ordering providers: order-ahead orders at the first are accepted, at the second rejected (and given back). */
export const ORDERING_PROVIDERS = [SANDBOX_PROVIDERS.accepts, SANDBOX_PROVIDERS.rejects] as const;
/** The visit campaign each merchant runs (campaignFixture's defaults): every third visit earns this much credit. */
export const VISITS_PER_REWARD = 3;
export const VISIT_REWARD = 400;

const ORDER_AHEAD_POLL_MS = 1_050; // the order_url poll limit is once a second
const ORDER_AHEAD_POLLS = 30;

/**
 * The parties of the conservation model, all of one global app: two merchants, each with a location that takes
 * in-store and order-ahead orders and a visit campaign, and three customers, one per sandbox card behaviour. Each
 * money operation the model draws is a function here that sends its requests through `send`.
 */
export async function conservationWorld() {
  const { app } = await appFixture({ global: true });
  const merchants = await Promise.all(
    ORDERING_PROVIDERS.map(async (provider) => {
      const merchant = await merchantFixture(app.app_id);
      const { location } = await orderAheadLocationFixture({ within: { app, merchant }, provider });
      const campaign = await campaignFixture(merchant.merchant.merchant_id, 'visit', { required_visit_count: VISITS_PER_REWARD, earn_amount: VISIT_REWARD });
      return { ...merchant, location, campaign };
    }),
  );
  const customers = await Promise.all(
    CARD_NONCES.map(async (nonce) => {
      const user = await userFixture(app.app_id);
      await addCreditCard(user.user.user_id, `${nonce}-${randomUUID()}`);
      return user;
    }),
  );
  const m = (index: number) => merchants[index]!;
  const c = (index: number) => customers[index]!;
  const merchantCall = (merchant: number, method: string, path: string, body?: unknown): ModelRequest => ({
    method,
    path,
    options: { token: m(merchant).token, body },
  });
  const userCall = (customer: number, method: string, path: string, body?: unknown): ModelRequest => ({
    method,
    path,
    options: { token: c(customer).token, body },
  });
  const qr = (customer: number) => c(customer).user.payment_token_data;
  const locationId = (merchant: number) => m(merchant).location.location_id;

  return {
    merchantCount: merchants.length,
    customerCount: customers.length,
    merchantId: (index: number) => m(index).merchant.merchant_id,
    userId: (index: number) => c(index).user.user_id,

    load: (merchant: number, customer: number, amount: number): ModelRequest =>
      merchantCall(merchant, 'POST', `/v15/merchants/${m(merchant).merchant.merchant_id}/gift_card_value_additions`, {
        gift_card_value_addition: { payment_token_data: qr(customer), value_amount: amount },
      }),
    remove: (merchant: number, customer: number, amount: number): ModelRequest =>
      merchantCall(merchant, 'POST', `/v15/merchants/${m(merchant).merchant.merchant_id}/gift_card_value_removals`, {
        gift_card_value_removal: { payment_token_data: qr(customer), value_amount: amount, uuid: null },
      }),
    refund: (merchant: number, uuid: string): ModelRequest =>
      merchantCall(merchant, 'POST', `/v15/orders/${uuid}/refund`, { refund: { manager_confirmation: null } }),
    detachedRefund: (merchant: number, customer: number, amount: number): ModelRequest =>
      merchantCall(merchant, 'POST', '/v15/detached_refunds', {
        detached_refund: {
          credit_amount: amount,
          location_id: locationId(merchant),
          payment_token_data: qr(customer),
          manager_confirmation: null,
          identifier_from_merchant: null,
        },
      }),
    grant: (merchant: number, customer: number, amount: number, seconds: number): ModelRequest =>
      merchantCall(merchant, 'POST', '/v15/merchant_funded_credits', {
        merchant_funded_credit: {
          email: c(customer).email,
          merchant_id: m(merchant).merchant.merchant_id,
          value_amount: amount,
          duration_in_seconds: seconds,
          message: 'Thanks',
          global: false,
        },
      }),
    adjustVisits: (merchant: number, customer: number, adjustment: number): ModelRequest =>
      merchantCall(merchant, 'POST', '/v15/progress_adjustments', {
        progress_adjustment: {
          adjustment,
          audit_comment: 'conservation model',
          campaign_id: m(merchant).campaign.campaign_id,
          user_id: c(customer).user.user_id,
          suppress_email: true,
        },
      }),
    giftCardOrder: (merchant: number, buyer: number, recipient: number, amount: number): ModelRequest =>
      userCall(buyer, 'POST', '/v15/users/gift_card_value_orders', {
        gift_card_value_order: {
          merchant_id: m(merchant).merchant.merchant_id,
          recipient_email: c(recipient).email,
          recipient_name: 'Friend',
          recipient_message: 'For you',
          value_amount: amount,
        },
      }),
    oneStepOrder: (merchant: number, customer: number, spend: number, discount: number): ModelRequest =>
      merchantCall(merchant, 'POST', '/v15/orders', {
        order: {
          location_id: locationId(merchant),
          payment_token_data: qr(customer),
          spend_amount: spend,
          tip_amount: 0,
          applied_discount_amount: discount,
          identifier_from_merchant: null,
          items: [],
        },
      }),
    /** The POS's credit check: what the customer may spend now (and it expires grants whose time has passed). */
    creditCheck: (merchant: number, customer: number): ModelRequest =>
      merchantCall(merchant, 'GET', `/v15/locations/${locationId(merchant)}/merchant_funded_credit?payment_token_data=${encodeURIComponent(qr(customer))}`),

    /** Proposed + completed, applying the offered discount when asked; the completion's response, or the refusal. */
    async order(send: Send, merchant: number, customer: number, terms: { spend: number; applyDiscount: boolean; partial: boolean }) {
      const common = {
        location_id: locationId(merchant),
        payment_token_data: qr(customer),
        spend_amount: terms.spend,
        tax_amount: 0,
        partial_authorization_allowed: terms.partial,
      };
      const proposed = await send(merchantCall(merchant, 'POST', '/v15/proposed_orders', { proposed_order: { ...common, exemption_amount: 0, items: [] } }));
      if (proposed.status !== 200) return { response: proposed, discount: 0 };
      const discount = terms.applyDiscount ? (proposed.body.proposed_order.discount_amount as number) : 0;
      const response = await send(
        merchantCall(merchant, 'POST', '/v15/completed_orders', {
          completed_order: { ...common, proposed_order_uuid: proposed.body.proposed_order.uuid, applied_discount_amount: discount },
        }),
      );
      return { response, discount };
    },

    /** A remote check: the POS publishes it, the customer claims it with a tip, the POS reads the discount and finalises. */
    async remoteCheck(send: Send, merchant: number, customer: number, terms: { spend: number; tip: number; applyDiscount: boolean }) {
      const published = await send(
        merchantCall(merchant, 'PUT', '/v15/checks', {
          check: {
            location_id: locationId(merchant),
            spend_amount: terms.spend,
            tax_amount: 0,
            exemption_amount: 0,
            partial_authorization_allowed: false,
            cashier: null,
            register: null,
            identifier_from_merchant: null,
            items: [],
          },
        }),
      );
      if (published.status !== 200) return { response: published, discount: 0 };
      const uuid = published.body.check.uuid as string;
      const claimed = await send(userCall(customer, 'POST', `/v15/checks/${uuid}/orders`, { order: { tip_amount: terms.tip } }));
      if (claimed.status !== 200) return { response: claimed, discount: 0 };
      const polled = await send(merchantCall(merchant, 'GET', `/v15/checks/${uuid}`));
      if (polled.status !== 200) return { response: polled, discount: 0 };
      const discount = terms.applyDiscount ? ((polled.body.check.pending_order?.discount_amount as number | null) ?? 0) : 0;
      const response = await send(
        merchantCall(merchant, 'POST', `/v15/checks/${uuid}/orders`, {
          order: { applied_discount_amount: discount, tax_amount: 0, spend_amount: terms.spend },
        }),
      );
      return { response, discount };
    },

    /**
     * An order ahead by the customer's app: started, polled until priced, completed, polled until the workflow's
     * outcome (200 completed, 422 rejected). `priced` is the valid order (its total and the discount it applies)
     * once known: from then on the charge may happen whatever the last answer says.
     */
    async orderAhead(send: Send, merchant: number, customer: number, quantity: number) {
      const started = await send(
        userCall(customer, 'POST', '/v15/order_ahead/orders', {
          order: {
            location_id: locationId(merchant),
            conveyance: { fulfillment_type: 'pickup', desired_ready_time: null, delivery_address_id: null },
            items: [{ item: { id: SAMPLE_IDS.tots, quantity, special_instructions: null, option_ids: [SAMPLE_IDS.small] } }],
            special_instructions: null,
            tip_amount: 0,
          },
        }),
      );
      if (started.status !== 200) return { response: started, priced: undefined, submitted: false };
      const valid = await pollOrderUrl(send, userCall(customer, 'GET', started.body.order.order_url as string));
      if (valid.status !== 200) return { response: valid, priced: undefined, submitted: false };
      const priced = valid.body.order as { uuid: string; total_amount: number; discount_amount: number; order_completion_url: string };
      const submitted = await send(userCall(customer, 'POST', priced.order_completion_url));
      if (submitted.status !== 202) return { response: submitted, priced, submitted: submitted.status >= 500 };
      const response = await pollOrderUrl(send, userCall(customer, 'GET', submitted.body.order.order_url as string));
      return { response, priced, submitted: true };
    },
  };
}

/** Polls an order_url as a well-behaved app (once a second) while it answers 202 (or 429), up to a bound. */
async function pollOrderUrl(send: Send, poll: ModelRequest): Promise<ApiResult> {
  let answer = await send(poll);
  for (let attempt = 1; attempt < ORDER_AHEAD_POLLS && (answer.status === 202 || answer.status === 429); attempt++) {
    await sleep(ORDER_AHEAD_POLL_MS);
    answer = await send(poll);
  }
  return answer;
}

export type ConservationWorld = Awaited<ReturnType<typeof conservationWorld>>;
