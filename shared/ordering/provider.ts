/**
 * The ordering provider port: the merchant's own ordering or fulfilment service, to which a paid
 * order-ahead order is forwarded (the contract: "the user is charged and the order forwarded to the
 * provider only when order_completion_url is POSTed"). Providers answer at once or later: the
 * completion workflow submits once, then asks for the answer until the cut-off (docs/order-ahead.md).
 */

/** What a provider is told about an order: the priced cart as validated, and when the user wants it. */
export interface ProviderOrder {
  uuid: string;
  merchant_id: number;
  location_id: number;
  fulfillment_type: 'pickup' | 'delivery';
  delivery_address_id: number | null;
  /** When the user wants it ready: the chosen time, or the soonest time offered at validation. */
  ready_at: string;
  special_instructions: string | null;
  items: { id: number; name: string; quantity: number; option_ids: number[]; special_instructions: string | null }[];
  /** What the user paid, in cents. */
  total_amount: number;
}

export type ProviderAnswer =
  /** The provider took the order: its own order number (shown to the user) and when it will be ready. */
  | { status: 'accepted'; order_number: string; ready_at: string }
  /** The provider refused the order; the reason is shown to the user. */
  | { status: 'rejected'; reason: string }
  /** No answer yet: ask again later. */
  | { status: 'pending' };

export interface OrderingProvider {
  /**
   * Forwards the order. Providers de-duplicate by the order's uuid: a submission retried after a lost
   * answer is the same submission (and gets the same answer).
   */
  submit(order: ProviderOrder, submittedAt: Date): Promise<ProviderAnswer>;
  /** The provider's answer now for an order submitted at `submittedAt`. */
  status(order: ProviderOrder, submittedAt: Date, now: Date): Promise<ProviderAnswer>;
  /** Withdraws an order the provider may hold (the order was rejected on our side after forwarding). */
  cancel(order: ProviderOrder): Promise<void>;
}
