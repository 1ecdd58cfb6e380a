/** Who an order is between: the merchant whose token sends it and the location it is at. */
import { ApiError, unauthorized, unprocessable } from '#shared/errors.ts';

export const LOCATION_NOT_FOUND = () => unprocessable('order', 'location_id', "Location can't be blank", 'not_found');
/**
 * The contract's answer to a merchant token not tied to the merchant concerned: also for another merchant's
 * location (issue 34.3). Location ids are public (an app's location list), so "not found" would hide nothing.
 */
export const MERCHANT_NOT_AUTHORIZED = () => unauthorized('Not authorized to create orders for this merchant.', 'order', 'merchant_token');

/** An order's location must exist (else `missing`, the route's contract answer) and be the merchant's (else 401). */
export function requireMerchantsLocation<T extends { merchant_id?: unknown }>(
  merchantId: number,
  location: T | undefined,
  missing: () => ApiError = LOCATION_NOT_FOUND,
): T {
  if (typeof location?.merchant_id !== 'number') throw missing();
  if (location.merchant_id !== merchantId) throw MERCHANT_NOT_AUTHORIZED();
  return location;
}
