/**
 * Key builders for every entity of the single table. Entity prefixes keep kinds apart
 * (`USER#`, `TOKEN#`, ...); numeric parts of sort keys are zero-padded so they sort as numbers.
 * docs/data-model.md lists each access pattern that uses them.
 */

export interface Key {
  pk: string;
  sk: string;
}

/** Zero-pads a non-negative integer id so lexical order equals numeric order. */
export function padId(id: number): string {
  return String(id).padStart(12, '0');
}

export const keys = {
  counter: (entity: string): Key => ({ pk: `COUNTER#${entity}`, sk: 'COUNTER' }),

  app: (appId: number): Key => ({ pk: `APP#${appId}`, sk: 'APP' }),
  apiKey: (apiKeyHash: string): Key => ({ pk: `APIKEY#${apiKeyHash}`, sk: 'APIKEY' }),

  token: (tokenHash: string): Key => ({ pk: `TOKEN#${tokenHash}`, sk: 'TOKEN' }),
  /** Username (user email or merchant login), lower-cased: holds the password hash and the subject. */
  login: (username: string): Key => ({ pk: `LOGIN#${username.trim().toLowerCase()}`, sk: 'LOGIN' }),

  user: (userId: number): Key => ({ pk: `USER#${userId}`, sk: 'USER' }),
  userAddress: (userId: number, addressId: number): Key => ({ pk: `USER#${userId}`, sk: `ADDRESS#${padId(addressId)}` }),
  userAddressPrefix: (userId: number) => ({ pk: `USER#${userId}`, skPrefix: 'ADDRESS#' }),
  creditCard: (userId: number, cardId: number): Key => ({ pk: `USER#${userId}`, sk: `CARD#${padId(cardId)}` }),
  creditCardPrefix: (userId: number) => ({ pk: `USER#${userId}`, skPrefix: 'CARD#' }),
  /** One card (by gateway fingerprint) belongs to one user. */
  cardFingerprint: (fingerprint: string): Key => ({ pk: `CARDFP#${fingerprint}`, sk: 'CARDFP' }),
  /** The QR code data a POS scans, pointing at its user. */
  paymentToken: (data: string): Key => ({ pk: `QR#${data}`, sk: 'QR' }),

  merchant: (merchantId: number): Key => ({ pk: `MERCHANT#${merchantId}`, sk: 'MERCHANT' }),
  location: (locationId: number): Key => ({ pk: `LOCATION#${locationId}`, sk: 'LOCATION' }),
  /** gsi1 of a location: a merchant's locations by id. */
  merchantLocationsIndex: (merchantId: number, locationId: number) => ({
    gsi1pk: `MERCHANT#${merchantId}#LOCATIONS`,
    gsi1sk: `LOCATION#${padId(locationId)}`,
  }),
  /** gsi2 of a location: every location by id (what a global app lists). */
  allLocationsIndex: (locationId: number) => ({ gsi2pk: 'LOCATIONS', gsi2sk: `LOCATION#${padId(locationId)}` }),
};
