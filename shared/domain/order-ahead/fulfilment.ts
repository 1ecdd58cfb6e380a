/**
 * The completion workflow's steps (infra/constructs/order-ahead-completion-workflow.ts runs them, each a
 * Task of functions/order-ahead-completion-steps.ts). Every step may run more than once (a Retry, a lost
 * answer, the poll's backstop), so each one starts from the order's stored state and does only what is
 * left to do:
 *
 *   charge   `submitting` -> `charging`, then the settlement saga (complete.ts): `charging` -> `submitted`
 *            with the money in one transaction. A decline is an outcome (the order is rejected), not a failure.
 *   forward  sends the charged order to the location's ordering provider; `check` asks for its answer
 *            until PROVIDER_CUTOFF_SECONDS after the POST. Accepted: `submitted` -> `completed` with the
 *            provider's order number and ready time and `order_ahead.completed` in one transaction (and
 *            the cart is remembered for suggested orders).
 *   reject   `submitting`/`charging`/`submitted` -> `rejected`, the reason kept; a charged order is first
 *            withdrawn from the provider and given back (orders/refunds.ts reverseRejectedOrder).
 */
import { and, itemExists, stateIs } from '#shared/db/conditions.ts';
import { keys } from '#shared/db/keys.ts';
import { readItems } from '#shared/db/reads.ts';
import { transactWrite } from '#shared/db/transactions.ts';
import { eventCounterKey, orderAheadResource } from '#shared/domain/events/catalogue.ts';
import { optionalEnv } from '#shared/env.ts';
import { ApiError, errorDetail, type ErrorDetail } from '#shared/errors.ts';
import { log } from '#shared/log.ts';
import { noClaimRuns } from '#shared/domain/orders/lease.ts';
import { Order, type OrderRecord } from '#shared/domain/orders/record.ts';
import { reverseRejectedOrder } from '#shared/domain/orders/refunds.ts';
import { DEFAULT_ORDERING_PROVIDER, orderingProvider, type ProviderAnswer, type ProviderOrder } from '#shared/ordering/index.ts';
import { epochSeconds, isoSeconds } from '#shared/time.ts';
import { chargeOrderAhead } from './complete.ts';
import { getProposedOrder, PROVIDER_CUTOFF_SECONDS, transitionOrder, type CompletionFacts, type OrderAheadRecord } from './orders.ts';
import { completionEventItems, orderAheadCompleted, orderAheadRejected } from './outcomes.ts';
import { OrderAheadOrder } from './record.ts';
import { rememberCompletedCart } from './suggestions.ts';

export const PROVIDER_TIMED_OUT = (seconds: number): ErrorDetail =>
  errorDetail(
    'order',
    'base',
    `The restaurant did not confirm this order within ${seconds} seconds; you have not been charged. Please try again.`,
    'provider_timeout',
  );
export const COMPLETION_FAILED: ErrorDetail = errorDetail(
  'order',
  'base',
  'We could not complete this order; you have not been charged. Please try again.',
  'completion_failed',
);
const providerRejected = (reason: string): ErrorDetail => errorDetail('order', 'base', `The restaurant rejected this order: ${reason}`, 'provider_rejected');

/** The cut-off, from configuration (ORDER_AHEAD_PROVIDER_CUTOFF_SECONDS, whole seconds; tests shorten it). */
export function providerCutoffSeconds(): number {
  const configured = Number(optionalEnv('ORDER_AHEAD_PROVIDER_CUTOFF_SECONDS'));
  return Number.isInteger(configured) && configured > 0 ? configured : PROVIDER_CUTOFF_SECONDS;
}

async function storedOrder(uuid: string): Promise<OrderAheadRecord> {
  const order = await getProposedOrder(uuid);
  if (!order?.priced) throw new Error(`order ahead order ${uuid} is not a submitted order`);
  return order;
}

// ---------------------------------------------------------------------------------------------
// charge

export type ChargeOutcome = { charged: true } | { charged: false; errors: ErrorDetail[] };

export async function chargeStep(uuid: string): Promise<ChargeOutcome> {
  let order = await storedOrder(uuid);
  if (order.state === 'submitting') order = (await transitionOrder(uuid, ['submitting'], 'charging')) ?? (await storedOrder(uuid));
  switch (order.state) {
    case 'submitted':
    case 'completed':
      return { charged: true }; // a repeat after the money committed
    case 'rejected':
      return { charged: false, errors: order.rejection?.errors ?? [COMPLETION_FAILED] };
    case 'charging':
      break;
    default:
      throw new Error(`order ahead order ${uuid} cannot be charged in state ${order.state}`);
  }
  try {
    await chargeOrderAhead(order);
    return { charged: true };
  } catch (error) {
    // Declined, insufficient funds, no card: the customer's answer, not a fault to retry. A 409 (another
    // settlement holds the lease) and anything unexpected are thrown: the Task's Retry runs the step again.
    if (!(error instanceof ApiError) || error.status !== 422 || !error.details) throw error;
    if (error.details[0]?.code === 'already_completed') return { charged: true };
    return { charged: false, errors: error.details };
  }
}

// ---------------------------------------------------------------------------------------------
// forward / check

/** What the workflow's Choice reads: accepted ends it, pending waits and asks again, rejected rejects. */
export type ProviderOutcome = { status: 'accepted' } | { status: 'pending' } | { status: 'rejected'; errors: ErrorDetail[] };

function providerOrder(order: OrderAheadRecord): ProviderOrder {
  const priced = order.priced!;
  return {
    uuid: order.uuid,
    merchant_id: priced.merchant_id,
    location_id: priced.location_id,
    fulfillment_type: priced.fulfillment_type,
    delivery_address_id: priced.delivery_address_id,
    ready_at: priced.desired_ready_time ?? priced.soonest_available_at,
    special_instructions: priced.special_instructions,
    items: priced.items.map((line) => ({
      id: line.id,
      name: line.name,
      quantity: line.quantity,
      option_ids: line.option_ids,
      special_instructions: line.special_instructions,
    })),
    total_amount: priced.total_amount,
  };
}

/** The outcome of a state the order already reached (a repeated step), if it is final. */
function finalOutcome(order: OrderAheadRecord): ProviderOutcome | undefined {
  if (order.state === 'completed') return { status: 'accepted' };
  if (order.state === 'rejected') return { status: 'rejected', errors: order.rejection?.errors ?? [COMPLETION_FAILED] };
  if (order.state !== 'submitted') throw new Error(`order ahead order ${order.uuid} was not charged (state ${order.state})`);
  return undefined;
}

/** The completed order's own facts: the provider's answer, the location's phone and the amounts as settled. */
function completionFacts(order: OrderAheadRecord, settled: OrderRecord | undefined, answer: Extract<ProviderAnswer, { status: 'accepted' }>): CompletionFacts {
  const priced = order.priced!;
  const tip = settled?.tip_amount ?? priced.tip_amount;
  const paidWithoutCard = settled ? settled.applied_discount_amount + settled.gift_card_total_amount : priced.discount_amount;
  return {
    order_number: answer.order_number,
    ready_at: answer.ready_at,
    phone: priced.location_phone ?? '',
    discount_amount: paidWithoutCard,
    total_amount: settled ? settled.charged_amount : priced.total_amount,
    spend_amount: settled ? settled.spend_amount : priced.spend_amount,
    tip_amount: tip,
    completed_at: isoSeconds(),
  };
}

async function settle(order: OrderAheadRecord, answer: ProviderAnswer, now: Date): Promise<ProviderOutcome> {
  if (answer.status === 'rejected') return { status: 'rejected', errors: [providerRejected(answer.reason)] };
  if (answer.status === 'pending') {
    const cutoff = providerCutoffSeconds();
    const submittedAt = Date.parse(order.submitted_at!);
    return now.getTime() - submittedAt >= cutoff * 1000 ? { status: 'rejected', errors: [PROVIDER_TIMED_OUT(cutoff)] } : { status: 'pending' };
  }
  // The settled order's amounts and the order's event counter, in one read.
  const [settled, eventCounter] = await readItems([keys.order(order.uuid), eventCounterKey(orderAheadResource(order.uuid))], { consistent: true });
  const completed = await completeOrder(order, completionFacts(order, Order.from(settled), answer), eventCounter ?? null);
  if (!completed) return finalOutcome(await storedOrder(order.uuid)) ?? { status: 'pending' };
  orderAheadCompleted(completed);
  await rememberCompletedCart(completed);
  return { status: 'accepted' };
}

/**
 * `submitted` -> `completed`, once, with `order_ahead.completed` for the order's app in the same transaction.
 * Undefined when the order was no longer submitted (a repeated step, or rejected meanwhile).
 */
async function completeOrder(
  order: OrderAheadRecord,
  completion: CompletionFacts,
  eventCounter: Record<string, unknown> | null,
): Promise<OrderAheadRecord | undefined> {
  const completed: OrderAheadRecord = { ...order, state: 'completed', completion, updated_at: isoSeconds() };
  let first = true;
  const result = await transactWrite(async () => {
    // A rebuild (another event of the order won its counter) reads the counter afresh.
    const counter = first ? eventCounter : undefined;
    first = false;
    return [
      OrderAheadOrder.at(order.uuid).update(
        { set: { state: 'completed', completion, updated_at: completed.updated_at } },
        and(itemExists, stateIs('submitted')),
      ),
      ...(await completionEventItems(completed, counter)),
    ];
  });
  if (result.committed) return completed;
  if (result.reasons[0] === 'ConditionalCheckFailed') return undefined;
  // Still losing races after the retries: the step fails and its Retry runs it again.
  throw new Error(`order ahead order ${order.uuid}: completion not recorded (${result.reasons.join(', ')})`);
}

export async function forwardStep(uuid: string, now: Date = new Date()): Promise<ProviderOutcome> {
  const order = await storedOrder(uuid);
  const done = finalOutcome(order);
  if (done) return done;
  const provider = orderingProvider(order.priced!.ordering_provider ?? DEFAULT_ORDERING_PROVIDER);
  return settle(order, await provider.submit(providerOrder(order), new Date(order.submitted_at!)), now);
}

export async function checkStep(uuid: string, now: Date = new Date()): Promise<ProviderOutcome> {
  const order = await storedOrder(uuid);
  const done = finalOutcome(order);
  if (done) return done;
  const provider = orderingProvider(order.priced!.ordering_provider ?? DEFAULT_ORDERING_PROVIDER);
  return settle(order, await provider.status(providerOrder(order), new Date(order.submitted_at!), now), now);
}

// ---------------------------------------------------------------------------------------------
// reject

/** Why the workflow is rejecting, from what its state holds: the decline, the provider's answer, or a failure. */
export function rejectionErrors(state: {
  charge?: Partial<ChargeOutcome>;
  provider?: Partial<{ status: string; errors: ErrorDetail[] }>;
  failure?: unknown;
}): ErrorDetail[] {
  const charge = state.charge;
  if (charge?.charged === false && charge.errors?.length) return charge.errors;
  if (state.provider?.status === 'rejected' && state.provider.errors?.length) return state.provider.errors;
  return [COMPLETION_FAILED];
}

/** Thrown while a settlement still holds the order: the step's Retry waits for the lease to end. */
class SettlementInFlight extends Error {
  override readonly name = 'SettlementInFlight';
}

/**
 * Rejects an order that is still being completed, once, keeping `errors` as the reason. A charged order
 * is withdrawn from the provider and its money given back before it is marked rejected, so `rejected`
 * always means "not charged, or charged and reversed". Returns the order as it ends.
 */
export async function rejectOrder(uuid: string, errors: ErrorDetail[]): Promise<OrderAheadRecord> {
  const order = await storedOrder(uuid);
  const rejection = (chargeReversed: boolean) => ({ rejection: { errors, charge_reversed: chargeReversed, rejected_at: isoSeconds() } });
  if (order.state === 'rejected' || order.state === 'completed') return order;
  if (order.state === 'submitting' || order.state === 'charging') {
    // Not charged yet: reject unless a settlement holds its lease (it may be committing its charge now).
    const rejected = await transitionOrder(uuid, ['submitting', 'charging'], 'rejected', rejection(false), noClaimRuns(epochSeconds()));
    if (rejected) {
      orderAheadRejected(rejected);
      return rejected;
    }
    const current = await storedOrder(uuid);
    if (current.state === 'submitting' || current.state === 'charging')
      throw new SettlementInFlight(`order ahead order ${uuid} is being charged; retry after its lease`);
    return current.state === 'submitted' ? rejectOrder(uuid, errors) : current;
  }
  if (order.state !== 'submitted') throw new Error(`order ahead order ${uuid} cannot be rejected in state ${order.state}`);
  await orderingProvider(order.priced!.ordering_provider ?? DEFAULT_ORDERING_PROVIDER).cancel(providerOrder(order));
  await reverseRejectedOrder(uuid);
  const rejected = await transitionOrder(uuid, ['submitted'], 'rejected', rejection(true));
  if (!rejected) {
    const current = await storedOrder(uuid);
    // Completed meanwhile is impossible once reversed (only this workflow moves a submitted order); log it loudly if seen.
    if (current.state !== 'rejected') log('error', 'order_ahead_reversed_but_not_rejected', { order_uuid: uuid, state: current.state });
    return current;
  }
  orderAheadRejected(rejected);
  return rejected;
}
