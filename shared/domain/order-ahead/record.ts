/** The stored order-ahead order (orders.ts writes and transitions it; outcomes.ts and serialize.ts read it). */
import type { ErrorDetail } from '#shared/errors.ts';
import type { OrderAheadState } from '#shared/schemas/order-ahead.ts';
import type { Cart } from './cart.ts';
import type { PricedOrder } from './pricing.ts';

/** What the provider answered when it took the order, with what the user paid: the completed order's own fields. */
export interface CompletionFacts {
  order_number: string;
  ready_at: string;
  phone: string;
  /** Merchant-funded credit and gift card value applied, and what the card paid (balance), as settled. */
  discount_amount: number;
  total_amount: number;
  spend_amount: number;
  tip_amount: number;
  completed_at: string;
}

/** Why an order was rejected after it was submitted, and what became of its charge. */
export interface RejectionFacts {
  errors: ErrorDetail[];
  /** Whether a charge was taken and given back (voided through the gateway, the ledger reversed). */
  charge_reversed: boolean;
  rejected_at: string;
}

export interface OrderAheadRecord {
  uuid: string;
  user_id: number;
  app_id: number;
  state: OrderAheadState;
  cart: Cart;
  /** Set when valid: everything the poll shows, priced at validation time. */
  priced: PricedOrder | null;
  /** Set when invalid: the error array the poll answers with. */
  errors: ErrorDetail[] | null;
  /** Epoch seconds after which a still-validating order is treated as failed (see pollOrder). */
  validation_deadline: number;
  /** Set by the POST of order_completion_url (completion.ts). */
  submitted_at?: string;
  /** Epoch seconds after which a submission still in progress is given up by the poll (the workflow is dead). */
  completion_deadline?: number;
  /** The settled order's uuid (the same uuid), set by the money transaction. */
  completed_order_uuid?: string;
  /** Set when the provider's cut-off passes while it is pending: epoch milliseconds (fulfilment.ts). */
  provider_deadline_ms?: number;
  completion?: CompletionFacts;
  rejection?: RejectionFacts;
  created_at: string;
  updated_at: string;
  ttl: number;
}
