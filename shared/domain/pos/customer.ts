/**
 * Who a POS request is for: the user a scanned QR code names, or the user whose token the POS sends
 * beside its merchant token (`token merchant="M", user="U"`). Every POS operation reads the QR code item
 * with the other items it needs (one BatchGetItem): `customerKeys` names it, `customerFrom` reads it.
 */
import { keys, type Key } from '#shared/db/keys.ts';
import type { StoredItem } from '#shared/db/reads.ts';
import type { UserPrincipal } from '#shared/auth/tokens.ts';
import { parsePaymentCode } from '#shared/domain/cards/payment-codes.ts';
import { PAYMENT_TOKEN_USER_ATTRIBUTES, userNamedByPaymentToken } from '#shared/domain/cards/payment-tokens.ts';

export interface PosCustomerInput {
  /** The scanned QR string as the POS sent it (the app's preference suffix, if any, is not part of the token). */
  paymentTokenData?: string | null;
  /** The user token sent with the merchant's, if any (it wins over a QR code). */
  user?: UserPrincipal;
}

/** What customerFrom reads of the QR code item: a batch that reads it with a projection includes these. */
export const CUSTOMER_ATTRIBUTES: readonly string[] = PAYMENT_TOKEN_USER_ATTRIBUTES;

/** The QR code item to read, when the customer is named by one. */
export function customerKeys(input: PosCustomerInput): Key[] {
  return !input.user && input.paymentTokenData ? [keys.paymentToken(parsePaymentCode(input.paymentTokenData).tokenData)] : [];
}

/** The customer's user id, from the user token or the QR code item `customerKeys` named; undefined when neither names one (or the code expired). */
export function customerFrom(input: PosCustomerInput, items: readonly (StoredItem | undefined)[]): number | undefined {
  if (input.user) return input.user.userId;
  // An expired or rotated code names no one (payment-tokens.ts).
  return userNamedByPaymentToken(items[0]);
}
