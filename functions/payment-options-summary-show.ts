import { apiHandler, ok } from '#shared/http/handler.ts';
import { paymentOptionsSummary } from '#shared/domain/cards/payment-methods.ts';

/** GET /v15/payment_options_summary (iOS): the billing options a user may choose, with their amounts. */
export const handler = apiHandler('payment-options-summary-show', { summary: 'The billing options a user may choose' }, async () =>
  ok(paymentOptionsSummary()),
);
