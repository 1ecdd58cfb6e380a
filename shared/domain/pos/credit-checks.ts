/**
 * What a POS (or the customer's app) asks before an order: the credit a customer can spend at a
 * location, and whether a scanned code is a LevelUp code. Every figure comes from `availableCredit`
 * (shared/domain/money/credit.ts), the definition the proposed order uses, so what the POS is shown is what
 * the next proposed order offers (`discount_amount`) and its completion applies (gift card value).
 */
import { keys } from '#shared/db/keys.ts';
import { readItems } from '#shared/db/reads.ts';
import { notFound, unauthorized } from '#shared/errors.ts';
import { availableCredit, type AvailableCredit } from '#shared/domain/money/credit.ts';
import { CUSTOMER_ATTRIBUTES, customerFrom, customerKeys, type PosCustomerInput } from './customer.ts';

const LOCATION_AND_CUSTOMER_ATTRIBUTES = ['merchant_id', ...CUSTOMER_ATTRIBUTES];

const NOT_THIS_MERCHANTS_LOCATION = () => unauthorized('Not authorized for this location.', 'location', 'merchant_token');

/**
 * GET /v15/locations/:id/credit: a user's credit at a location (merchant-funded credit plus gift card
 * value at its merchant). Without a user (v14 without a token) the credit a new user would have: 0.
 */
export async function locationCredit(locationId: number, userId: number | undefined): Promise<{ total: number; merchantFunded: number }> {
  const [location] = await readItems([keys.location(locationId)], { consistent: false });
  if (typeof location?.merchant_id !== 'number') throw notFound();
  if (userId === undefined) return { total: 0, merchantFunded: 0 };
  const credit = await availableCredit(userId, location.merchant_id);
  return { total: credit.merchantFunded + credit.giftCard, merchantFunded: credit.merchantFunded };
}

/**
 * The customer's available credit at one of the merchant's locations, for a POS: the location must be
 * the merchant's (401), the QR code (or user token) must name a user (404, empty body, as the docs show).
 */
export async function customerCreditAtLocation(merchantId: number, locationId: number, customer: PosCustomerInput): Promise<AvailableCredit> {
  // Only the location's merchant and what names the customer: not the location's ~40 other attributes.
  const [location, ...customerItems] = await readItems([keys.location(locationId), ...customerKeys(customer)], {
    consistent: true,
    attributes: LOCATION_AND_CUSTOMER_ATTRIBUTES,
  });
  if (location?.merchant_id !== merchantId) throw NOT_THIS_MERCHANTS_LOCATION();
  const userId = customerFrom(customer, customerItems);
  if (userId === undefined) throw notFound();
  return availableCredit(userId, merchantId);
}

/**
 * POST /v15/qr_code_validations: is the scanned code a LevelUp code? Every code is a user's payment code,
 * and every one can hold gift card value (gift_card_value_additions loads onto it); unknown codes are 404.
 */
export async function validateQrCode(paymentTokenData: string): Promise<{ giftCard: boolean; linkedToUser: boolean }> {
  const [paymentToken] = await readItems(customerKeys({ paymentTokenData }), { consistent: false });
  if (customerFrom({ paymentTokenData }, [paymentToken]) === undefined) throw notFound();
  return { giftCard: true, linkedToUser: true };
}
