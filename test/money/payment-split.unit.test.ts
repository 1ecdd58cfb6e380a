import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { availableDiscount, splitPayment, withCardApproval, type Split } from '#shared/domain/orders/payment-split.ts';

/**
 * The payment split (contract rules 1 to 5 of POST /v15/completed_orders) as pure arithmetic, without
 * DynamoDB or the gateway: test/money/orders.test.ts proves the same rules through the API.
 */
const split = (input: Partial<Parameters<typeof splitPayment>[0]>) =>
  splitPayment({ spend: 1000, tip: 0, appliedDiscount: 0, giftCardValue: 0, discountOnly: false, ...input });

/** Every cent of the approved amount comes from exactly one tender. */
const paidByTenders = (result: Split) => result.appliedDiscount + result.giftCardSpend + result.giftCardTip + result.charged;

describe('availableDiscount', () => {
  it('offers the credit the user has, up to the spend that is not exempt', () => {
    expect(availableDiscount(300, 1000, 0)).toBe(300);
    expect(availableDiscount(5000, 1000, 200)).toBe(800);
    expect(availableDiscount(0, 1000, 0)).toBe(0);
  });

  it('never offers a negative discount when the exemption exceeds the spend', () => {
    expect(availableDiscount(500, 100, 300)).toBe(0);
  });
});

describe('splitPayment', () => {
  it.each<[string, Parameters<typeof split>[0], Split]>([
    [
      'charges the card everything when there is no discount and no gift card value (rule 1: the tip is on top of the spend)',
      { spend: 1000, tip: 150 },
      { approvedSpend: 1000, approvedTip: 150, appliedDiscount: 0, giftCardSpend: 0, giftCardTip: 0, charged: 1150 },
    ],
    [
      'takes the applied discount first, then gift card value for the spend, then for the tip, then the card',
      { spend: 1000, tip: 200, appliedDiscount: 300, giftCardValue: 800 },
      { approvedSpend: 1000, approvedTip: 200, appliedDiscount: 300, giftCardSpend: 700, giftCardTip: 100, charged: 100 },
    ],
    [
      'applies only the discount on a discount-only order: no gift card value, no charge, no tip (rule 5)',
      { spend: 1000, tip: 150, appliedDiscount: 250, giftCardValue: 5000, discountOnly: true },
      { approvedSpend: 250, approvedTip: 0, appliedDiscount: 250, giftCardSpend: 0, giftCardTip: 0, charged: 0 },
    ],
  ])('%s', (_, input, expected) => {
    expect(split(input)).toEqual(expected);
  });

  it('charges nothing when the discount and gift card value cover spend and tip', () => {
    const result = split({ spend: 1000, tip: 100, appliedDiscount: 200, giftCardValue: 5000 });
    expect(result).toMatchObject({ giftCardSpend: 800, giftCardTip: 100, charged: 0 });
  });
});

describe('withCardApproval', () => {
  const base = split({ spend: 1000, tip: 200, appliedDiscount: 100, giftCardValue: 300 });

  it('keeps the split when the card approves the whole charge', () => {
    expect(base.charged).toBe(800);
    expect(withCardApproval(base, 800)).toEqual(base);
  });

  it('reduces the spend first, then the tip, to what the card approved (rule 2: partial authorization)', () => {
    // The card owes 600 of spend and 200 of tip; it approves 500.
    expect(withCardApproval(base, 500)).toEqual({ ...base, approvedSpend: 100 + 300 + 500, approvedTip: 0, charged: 500 });
    // It approves 700: all the spend, 100 of the tip.
    expect(withCardApproval(base, 700)).toEqual({ ...base, approvedSpend: 1000, approvedTip: 100, charged: 700 });
  });

  it('approves the discount and gift card value only when nothing can be charged (rule 4: no payment method)', () => {
    expect(withCardApproval(base, 0)).toEqual({ ...base, approvedSpend: 400, approvedTip: 0, charged: 0 });
  });
});

describe('split invariants', () => {
  const cents = fc.integer({ min: 0, max: 1_000_000 });
  const orders = fc
    .record({
      spend: cents,
      tip: cents,
      discount: cents,
      giftCardValue: cents,
      discountOnly: fc.boolean(),
      approvedShare: fc.double({ min: 0, max: 1, noNaN: true }),
    })
    .map((order) => ({ ...order, appliedDiscount: Math.min(order.discount, order.spend) }));

  it('pays every approved cent from exactly one tender, never more than was asked or held', () => {
    fc.assert(
      fc.property(orders, (order) => {
        const planned = splitPayment({
          spend: order.spend,
          tip: order.tip,
          appliedDiscount: order.appliedDiscount,
          giftCardValue: order.giftCardValue,
          discountOnly: order.discountOnly,
        });
        const approved = withCardApproval(planned, Math.floor(planned.charged * order.approvedShare));
        for (const result of [planned, approved]) {
          expect(paidByTenders(result)).toBe(result.approvedSpend + result.approvedTip);
          expect(result.approvedSpend).toBeLessThanOrEqual(order.spend);
          expect(result.approvedTip).toBeLessThanOrEqual(order.tip);
          expect(result.giftCardSpend + result.giftCardTip).toBeLessThanOrEqual(order.giftCardValue);
          expect(Math.min(result.giftCardSpend, result.giftCardTip, result.charged, result.appliedDiscount)).toBeGreaterThanOrEqual(0);
          expect(Number.isInteger(result.charged)).toBe(true);
        }
        expect(approved.charged).toBeLessThanOrEqual(planned.charged);
      }),
    );
  });
});
