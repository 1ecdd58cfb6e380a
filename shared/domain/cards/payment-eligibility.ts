/**
 * What the apps show with the QR code (GET /v15 and /v14 payment_token, SDK reference A10): the token, and
 * whether the user can pay with it. A user without a usable card (none promoted, or it expired) can still use
 * the code for loyalty (the contract's completed-order rule 4): v15 answers the token with
 * `action: "add_payment_method"` and a banner, as the newer iOS SDK expects; v14, the older clients' form,
 * answers the documented 404 `payment_token/base` `no_credit_card` ("not payment-eligible"). A card that
 * expires this month or next adds an "expiring soon" banner.
 */
import { errorDetail, notFound, type ApiError } from '#shared/errors.ts';
import { NO_CARD_MESSAGE, paymentStanding } from '#shared/domain/cards/credit-cards.ts';
import { getUserOrUnauthorized } from '#shared/domain/identity/users.ts';
import { paymentTokenToShow, serializePaymentToken } from '#shared/domain/cards/payment-tokens.ts';

export const ADD_PAYMENT_METHOD_MESSAGE = 'Add a Payment Method for one-touch payments & loyalty';
export const CARD_EXPIRING_MESSAGE = 'Your credit card is expiring soon!';

/** The v14 answer for a user who cannot pay (the IOS fixture's and the v14 docs' body). */
export const NOT_PAYMENT_ELIGIBLE = (): ApiError => notFound(errorDetail('payment_token', 'base', NO_CARD_MESSAGE, 'no_credit_card'));

export interface PaymentTokenView {
  payment_token: { data: string; id: number; action: 'add_payment_method' | null; message: string | null };
}

export async function paymentTokenForApp(userId: number, form: 'v14' | 'v15'): Promise<PaymentTokenView> {
  const user = await getUserOrUnauthorized(userId);
  const standing = await paymentStanding(user);
  if (!standing.payable && form === 'v14') throw NOT_PAYMENT_ELIGIBLE();
  const notice = !standing.payable
    ? { action: 'add_payment_method' as const, message: ADD_PAYMENT_METHOD_MESSAGE }
    : { action: null, message: standing.expiringSoon ? CARD_EXPIRING_MESSAGE : null };
  // The token shown is renewed first when it is near its expiry (payment-tokens.ts).
  return { payment_token: { ...serializePaymentToken(await paymentTokenToShow(user)).payment_token, ...notice } };
}

/** The token data GET /v15/qr_codes encodes the preferences after (renewed as the payment token read renews it). */
export async function paymentTokenData(userId: number): Promise<string> {
  return (await paymentTokenToShow(await getUserOrUnauthorized(userId))).data;
}
