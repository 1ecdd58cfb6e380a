import { describe, expect, it } from 'vitest';
import { orderingProvider, type ProviderOrder } from '#shared/ordering/index.ts';
import { SANDBOX_PROVIDERS, SANDBOX_REJECTION_REASON, SANDBOX_SLOW_ANSWER_SECONDS, sandboxOrderNumber } from '#shared/ordering/sandbox.ts';

/** The sandbox ordering provider's documented behaviours (docs/order-ahead.md), as a function of time alone. */
const order: ProviderOrder = {
  uuid: '0123456789abcdef0123456789abcdef',
  merchant_id: 1,
  location_id: 2,
  fulfillment_type: 'pickup',
  delivery_address_id: null,
  ready_at: '2030-01-01T12:15:00Z',
  special_instructions: null,
  items: [{ id: 101, name: 'Tater Tots', quantity: 1, option_ids: [], special_instructions: null }],
  total_amount: 593,
};
const submittedAt = new Date('2030-01-01T12:00:00Z');
const later = (seconds: number) => new Date(submittedAt.getTime() + seconds * 1000);

describe('sandbox ordering provider', () => {
  it('sandbox-accepts: accepted at once, with a 7-digit order number of the order and its ready time', async () => {
    const answer = await orderingProvider(SANDBOX_PROVIDERS.accepts).submit(order, submittedAt);
    expect(answer).toEqual({ status: 'accepted', order_number: sandboxOrderNumber(order.uuid), ready_at: order.ready_at });
    expect(sandboxOrderNumber(order.uuid)).toMatch(/^\d{7}$/);
    // The same order, the same number (a retried submission is the same submission).
    expect(await orderingProvider(SANDBOX_PROVIDERS.accepts).status(order, submittedAt, later(5))).toEqual(answer);
  });

  it('sandbox-rejects: rejected at once with the documented reason', async () => {
    expect(await orderingProvider(SANDBOX_PROVIDERS.rejects).submit(order, submittedAt)).toEqual({ status: 'rejected', reason: SANDBOX_REJECTION_REASON });
  });

  it(`sandbox-slow: pending until ${SANDBOX_SLOW_ANSWER_SECONDS} s after submission, then accepted`, async () => {
    const provider = orderingProvider(SANDBOX_PROVIDERS.slow);
    expect(await provider.submit(order, submittedAt)).toEqual({ status: 'pending' });
    expect(await provider.status(order, submittedAt, later(SANDBOX_SLOW_ANSWER_SECONDS - 1))).toEqual({ status: 'pending' });
    expect(await provider.status(order, submittedAt, later(SANDBOX_SLOW_ANSWER_SECONDS))).toMatchObject({ status: 'accepted' });
  });

  it('sandbox-never-answers: pending, however long', async () => {
    const provider = orderingProvider(SANDBOX_PROVIDERS.neverAnswers);
    expect(await provider.submit(order, submittedAt)).toEqual({ status: 'pending' });
    expect(await provider.status(order, submittedAt, later(24 * 3600))).toEqual({ status: 'pending' });
  });
});
