/**
 * How one order's money is split between its tenders (contract rules 1 to 5): pure arithmetic on
 * integer cents, no I/O, so every rule is tested directly (test/money/payment-split.unit.test.ts).
 */

export interface Split {
  /** Spend approved, excluding tip (applied discount + gift card + card). */
  approvedSpend: number;
  /** Tip approved (gift card + card). */
  approvedTip: number;
  appliedDiscount: number;
  giftCardSpend: number;
  giftCardTip: number;
  /** What the card is charged (spend remainder first, then tip). */
  charged: number;
}

/** Credit the user can apply to a spend at the merchant: min(available credit, spend minus exemption). */
export function availableDiscount(creditBalance: number, spendAmount: number, exemptionAmount: number): number {
  return Math.max(0, Math.min(creditBalance, spendAmount - exemptionAmount));
}

/**
 * Splits a spend: the applied discount first, then gift card value at the merchant (spend, then tip),
 * then the card. A discount-only order applies the discount and nothing else (rule 5).
 */
export function splitPayment(input: { spend: number; tip: number; appliedDiscount: number; giftCardValue: number; discountOnly: boolean }): Split {
  if (input.discountOnly) {
    return { approvedSpend: input.appliedDiscount, approvedTip: 0, appliedDiscount: input.appliedDiscount, giftCardSpend: 0, giftCardTip: 0, charged: 0 };
  }
  const due = input.spend - input.appliedDiscount;
  const giftCardSpend = Math.min(input.giftCardValue, due);
  const giftCardTip = Math.min(input.giftCardValue - giftCardSpend, input.tip);
  const charged = due - giftCardSpend + (input.tip - giftCardTip);
  return { approvedSpend: input.spend, approvedTip: input.tip, appliedDiscount: input.appliedDiscount, giftCardSpend, giftCardTip, charged };
}

/**
 * Reduces a split to what the card approved (partial authorization; 0 when there is no card to charge):
 * the card pays the spend's remainder first, then the tip.
 */
export function withCardApproval(split: Split, approved: number): Split {
  const spendByCard = split.approvedSpend - split.appliedDiscount - split.giftCardSpend;
  const tipByCard = split.approvedTip - split.giftCardTip;
  const spendPaid = Math.min(approved, spendByCard);
  const tipPaid = Math.min(approved - spendPaid, tipByCard);
  return {
    ...split,
    approvedSpend: split.appliedDiscount + split.giftCardSpend + spendPaid,
    approvedTip: split.giftCardTip + tipPaid,
    charged: spendPaid + tipPaid,
  };
}
