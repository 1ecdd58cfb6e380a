import * as z from 'zod';

/**
 * The QR string a POS scans is the user's payment token data, to which the app may append its payment
 * preferences (sdk-operations A10): `"03"` + tip (3 base-36 characters: 0..1295 a percentage, 1296 + n
 * a tip of n cents) + colour (1 base-36 character) + `"LU"`. POS clients send the whole string; the token is
 * what is left without the suffix. Token data itself never has `LU` right before such a suffix (ours end in
 * hex then `LU`), so a string is read as suffixed only when it is framed that way.
 */
const SUFFIXED = /^(LU[0-9A-Z]+LU)03([0-9A-Z]{3})([0-9A-Z])LU$/;

export type TipPreference = { percent: number } | { cents: number };

/** The payment token data of a scanned QR string (the string itself when it carries no preferences). */
export function paymentTokenOf(scanned: string): string {
  return SUFFIXED.exec(scanned)?.[1] ?? scanned;
}

/** The tip the customer chose in the app, when the scanned string carries one. */
export function tipPreferenceOf(scanned: string): TipPreference | undefined {
  const match = SUFFIXED.exec(scanned);
  if (!match) return undefined;
  const value = Number.parseInt(match[2]!, 36);
  return value < 1296 ? { percent: value } : { cents: value - 1296 };
}

/** `payment_token_data` as POS clients send it: the token is looked up without the preference suffix. */
export const paymentTokenData = z.string().max(255).transform(paymentTokenOf);
