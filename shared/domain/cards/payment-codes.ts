/**
 * The QR string a POS scans: the user's payment token data, optionally followed by LevelUp's 8-character
 * "v3 preferences" suffix, the format the iOS and Android SDKs build on the phone and GET /v15/qr_codes builds
 * here (docs/payments.md, "QR codes and tips"):
 *
 *   <payment token data> "03" <tip: 3 base-36 chars> <colour: 1 base-36 char> "LU"
 *
 * The tip number is a percentage when below 1296 (`00F` = 15 %), otherwise 1296 + a tip in cents (`2JK` = $20.00),
 * capped at `ZZZ` (46655). Pure functions: no reads, no writes.
 */
import { unprocessable, type ApiError } from '#shared/errors.ts';

export const PREFERENCES_VERSION = '03';
const SENTINEL = 'LU';
/** Tip numbers below this are percentages; from it on, cents (1296 = 36^2). */
const CENTS_OFFSET = 1296;
/** `ZZZ`: the largest tip number three base-36 characters hold. */
const MAX_TIP_NUMBER = 36 ** 3 - 1;
/** The largest tip in cents the format can carry ($453.59). */
export const MAX_QR_TIP_AMOUNT = MAX_TIP_NUMBER - CENTS_OFFSET;
/** The docs' palette: 0 Soothing Green ... 9 Ninja Orange. */
export const QR_COLORS = [
  'Soothing Green',
  'Atomic Lime',
  'Tango Red',
  'Galactic Blue',
  'Purple Haze',
  'Yellow Submarine',
  'Arctic Teal',
  'Sick Flamingo',
  'Mint Julep',
  'Ninja Orange',
] as const;
/** Each palette colour as the PNG's dark modules (dark enough to scan on white). */
export const QR_COLOR_HEX: readonly string[] = [
  '#2e8b57ff',
  '#5a8f00ff',
  '#c0392bff',
  '#1f4e9aff',
  '#6a3d9aff',
  '#9a7d0aff',
  '#117a7aff',
  '#c2185bff',
  '#2f7d4fff',
  '#d35400ff',
];
export const MAX_TIP_PERCENT = 100;

export type Tip = { kind: 'none' } | { kind: 'percent'; percent: number } | { kind: 'amount'; amount: number };

export interface PaymentPreferences {
  tip: Tip;
  color: number;
}

/**
 * Splits a scanned string into the token data and its preferences. This service's tokens end in `LU`
 * (`LU02<32 hex>LU`, users.ts / payment-tokens.ts), and hex never holds an `L` or `U`: so a string is suffixed
 * exactly when, after taking 8 characters off its end, what is left still ends in `LU` and those 8 characters
 * are a v3 suffix. An unsuffixed token (or anything else) is returned whole, with no preferences.
 */
export function parsePaymentCode(scanned: string): { tokenData: string; preferences: PaymentPreferences | undefined } {
  if (!/^.+LU\d\d[0-9A-Z]{3}[0-9A-Z]LU$/.test(scanned)) return { tokenData: scanned, preferences: undefined };
  // The suffix is fixed width: its version (2 characters), tip (3) and color (1), then `LU`.
  const tokenData = scanned.slice(0, -8);
  const [version, tip, color] = [scanned.slice(-8, -6), scanned.slice(-6, -3), scanned.slice(-3, -2)];
  // Older suffix versions carry no tip this service knows how to read: the token is still the token.
  if (version !== PREFERENCES_VERSION) return { tokenData, preferences: undefined };
  return { tokenData, preferences: { tip: decodeTip(parseInt(tip, 36)), color: parseInt(color, 36) } };
}

function decodeTip(value: number): Tip {
  if (value === 0 || value === CENTS_OFFSET) return { kind: 'none' };
  return value < CENTS_OFFSET ? { kind: 'percent', percent: value } : { kind: 'amount', amount: value - CENTS_OFFSET };
}

/** The QR string for a token and preferences (what GET /v15/qr_codes answers and the SDKs build). */
export function encodePaymentCode(tokenData: string, preferences: PaymentPreferences): string {
  const { tip } = preferences;
  // Clamped as the iOS SDK clamps: a percentage to 1295, a cent tip to ZZZ, the colour to one character (Z).
  const number =
    tip.kind === 'percent' ? Math.min(tip.percent, CENTS_OFFSET - 1) : tip.kind === 'amount' ? Math.min(CENTS_OFFSET + tip.amount, MAX_TIP_NUMBER) : 0;
  const tipPart = number.toString(36).toUpperCase().padStart(3, '0');
  const colorPart = Math.min(Math.max(preferences.color, 0), 35).toString(36).toUpperCase();
  return `${tokenData}${PREFERENCES_VERSION}${tipPart}${colorPart}${SENTINEL}`;
}

/** GET /v15/qr_codes's one error (the docs'): a tip or colour out of bounds, or both tip kinds at once. */
export const INVALID_PREFERENCES = (): ApiError => unprocessable('qr_code', 'base', 'Payment preferences are invalid', 'invalid');

/**
 * The preferences of GET /v15/qr_codes's query: `preferences[color]` 0-9 (required), `preferences[tip_amount]`
 * cents or `preferences[tip_percent]` 0-100 (0 is no tip: the Ruby gem sends all three, 0 by default).
 */
export function preferencesFromQuery(query: { color?: string; tipAmount?: string; tipPercent?: string }): PaymentPreferences {
  const whole = (value: string | undefined, max: number): number | undefined => {
    if (value === undefined || value.trim() === '') return undefined;
    if (!/^\d{1,9}$/.test(value.trim())) throw INVALID_PREFERENCES();
    const number = Number(value.trim());
    if (number > max) throw INVALID_PREFERENCES();
    return number;
  };
  const color = whole(query.color, QR_COLORS.length - 1);
  if (color === undefined) throw INVALID_PREFERENCES();
  const amount = whole(query.tipAmount, MAX_QR_TIP_AMOUNT) ?? 0;
  const percent = whole(query.tipPercent, MAX_TIP_PERCENT) ?? 0;
  if (amount > 0 && percent > 0) throw INVALID_PREFERENCES();
  const tip: Tip = amount > 0 ? { kind: 'amount', amount } : percent > 0 ? { kind: 'percent', percent } : { kind: 'none' };
  return { tip, color };
}

/**
 * The tip a scanned code asks for on a check of `spendAmount` cents (a percentage rounds half up). A code made
 * on a phone can carry up to 1295 %: above 100 % the POS is told the preferences are invalid rather than
 * charging many times the check.
 */
export function tipFromPreferences(preferences: PaymentPreferences | undefined, spendAmount: number): number {
  const tip = preferences?.tip ?? { kind: 'none' };
  if (tip.kind === 'none') return 0;
  if (tip.kind === 'amount') return tip.amount;
  if (tip.percent > MAX_TIP_PERCENT) throw unprocessable('order', 'payment_token_data', 'Payment preferences are invalid', 'invalid_preferences');
  return Math.round((spendAmount * tip.percent) / 100);
}
