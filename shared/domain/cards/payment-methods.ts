/**
 * The app's billing screens (SDK reference A11-A14; docs/payments.md, "Payment method and preference"): the one
 * payment method the user is billed with (their promoted card), the billing options on offer, and the user's
 * choice between them. Charges stay per order whatever the choice (the settlement charges the promoted card at
 * completion, the ledger's card account records it): the preference is the user's stated choice, kept on the
 * user item and shown back, with the amounts it names bounded by the options summary.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#shared/db/client.ts';
import { notFound, unauthorized, unprocessable } from '#shared/errors.ts';
import { deleteCreditCard, getCreditCard } from '#shared/domain/cards/credit-cards.ts';
import { monthlyChargeLimit } from '#shared/domain/money/charge-limits.ts';
import { getApp } from '#shared/domain/identity/apps.ts';
import { getUserOrUnauthorized, User, type UserItem } from '#shared/domain/identity/users.ts';
import { itemExists } from '#shared/db/conditions.ts';
import type { PaymentPreferenceRequest } from '#shared/schemas/credit-cards.ts';
import { isoSeconds } from '#shared/time.ts';

/** The options summary: what a user may choose, with its amounts (LevelUp's defaults). */
export const PAYMENT_OPTIONS = {
  options: ['preload', 'monthly_billing'] as ('preload' | 'monthly_billing')[],
  max_credit_limit_amount: 15_000,
  monthly_billing_day: 1,
  preload_reload_threshold_amount: 1_500,
  preload_value_amount: 2_500,
};
/** Preload amounts a user may choose: as a gift card load ($10 to $500). */
export const MIN_PRELOAD_VALUE = 1_000;
export const MAX_PRELOAD_VALUE = 50_000;

export function paymentOptionsSummary() {
  return { payment_options_summary: PAYMENT_OPTIONS };
}

/** The promoted active card, or 404 (empty body) when the user has none: "no payment method". */
async function billedCard(user: UserItem) {
  const card = user.promoted_card_id == null ? undefined : await getCreditCard(user.user_id, user.promoted_card_id);
  if (card?.state !== 'active') throw notFound();
  return card;
}

export async function paymentMethod(principal: { userId: number; appId: number }) {
  const [user, app] = await Promise.all([getUserOrUnauthorized(principal.userId), getApp(principal.appId)]);
  const card = await billedCard(user);
  // Before a choice, orders are charged as they happen: instant billing.
  const preference = user.payment_preference ?? 'instant_billing';
  return {
    payment_method: {
      type: card.debit ? ('debit_card' as const) : ('credit_card' as const),
      description: `${card.type} *${card.last_4}`,
      // iOS reads the expiry as strings here (unlike the card list).
      metadata: { expiration_month: String(card.expiration_month), expiration_year: String(card.expiration_year), issuer: card.type, last_4: card.last_4 },
      payment_preference_type: preference,
      monthly_billing_day: preference === 'monthly_billing' ? PAYMENT_OPTIONS.monthly_billing_day : null,
      // The monthly card charge limit that holds for charges through this app (charge-limits.ts, docs/money.md).
      monthly_transaction_limit_amount: preference === 'monthly_billing' ? monthlyChargeLimit(app as Record<string, unknown> | undefined) : null,
      preload_reload_threshold_amount: preference === 'preload' ? PAYMENT_OPTIONS.preload_reload_threshold_amount : null,
      preload_value_amount: preference === 'preload' ? (user.preload_value_amount ?? PAYMENT_OPTIONS.preload_value_amount) : null,
    },
  };
}

/**
 * DELETE /v15/payment_method: deactivates the card the user is billed with, exactly as deleting it
 * (DELETE /v14/credit_cards/:id): its newest other active card, if any, becomes the one billed. 404 without one.
 */
export async function deactivatePaymentMethod(userId: number): Promise<void> {
  const card = await billedCard(await getUserOrUnauthorized(userId));
  try {
    await deleteCreditCard(userId, card.card_id);
  } catch (error) {
    // Deleted by a concurrent request: nothing active is left to remove.
    throw (error as { status?: number }).status === 404 ? notFound() : error;
  }
}

/** PUT /v15/apps/payment_preference: records the choice; a preload amount is bounded like a gift card load. */
export async function setPaymentPreference(userId: number, choice: PaymentPreferenceRequest): Promise<void> {
  const preloadValue = choice.preload ? (choice.preload_value_amount ?? PAYMENT_OPTIONS.preload_value_amount) : null;
  if (preloadValue !== null && (preloadValue < MIN_PRELOAD_VALUE || preloadValue > MAX_PRELOAD_VALUE)) {
    throw unprocessable(
      'payment_preference',
      'preload_value_amount',
      `Preload value must be between $${MIN_PRELOAD_VALUE / 100} and $${MAX_PRELOAD_VALUE / 100}`,
      'out_of_range',
    );
  }
  await db()
    .send(
      new UpdateCommand(
        User.at(userId).update(
          { set: { payment_preference: choice.preload ? 'preload' : 'monthly_billing', preload_value_amount: preloadValue, updated_at: isoSeconds() } },
          itemExists,
        ).Update,
      ),
    )
    .catch((error: unknown) => {
      if ((error as Error).name === 'ConditionalCheckFailedException') throw unauthorized('The access token is invalid.');
      throw error;
    });
}
