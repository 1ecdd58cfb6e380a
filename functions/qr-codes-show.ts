import * as z from '#shared/schemas/zod.ts';
// The encoder and the PNG renderer only: the package's entry point loads every renderer (shared/domain/orders/qrcode-encoder.d.ts).
import { create as createQrCode } from 'qrcode/lib/core/qrcode.js';
import { renderToBuffer } from 'qrcode/lib/renderer/png.js';
import { unprocessable } from '#shared/errors.ts';
import { apiHandler, ok, requireUser } from '#shared/http/handler.ts';
import { encodePaymentCode, preferencesFromQuery, QR_COLOR_HEX } from '#shared/domain/cards/payment-codes.ts';
import { paymentTokenData } from '#shared/domain/cards/payment-eligibility.ts';

/**
 * GET /v15/qr_codes?preferences[color]=0&preferences[tip_percent]=10 (the Ruby gem's qr_codes.get): the user's QR
 * string with the tip and colour encoded as the apps encode them (payment-codes.ts). With `Accept: image/png` the
 * answer is that code as a PNG, `width` pixels wide, in the chosen colour. A POS that scans it applies the tip.
 */
const text = z.optional(z.string().check(z.maxLength(20)));
const query = z.object({ 'preferences[color]': text, 'preferences[tip_amount]': text, 'preferences[tip_percent]': text, width: text });

export const MIN_QR_WIDTH = 64;
export const MAX_QR_WIDTH = 1024;

export const handler = apiHandler(
  'qr-codes-show',
  {
    summary: "The user's QR code with tip and colour preferences (JSON, or PNG with Accept: image/png)",
    query,
  },
  async (request) => {
    const preferences = preferencesFromQuery({
      color: request.query['preferences[color]'],
      tipAmount: request.query['preferences[tip_amount]'],
      tipPercent: request.query['preferences[tip_percent]'],
    });
    const code = encodePaymentCode(await paymentTokenData(requireUser(request).userId), preferences);
    if (!/\bimage\/png\b/i.test(request.headers.accept ?? '')) return ok({ qr_code: { code } });
    const width = request.query.width?.trim() ? Number(request.query.width.trim()) : 300;
    if (!Number.isInteger(width) || width < MIN_QR_WIDTH || width > MAX_QR_WIDTH) {
      throw unprocessable('qr_code', 'width', `Width must be a whole number of pixels from ${MIN_QR_WIDTH} to ${MAX_QR_WIDTH}`, 'invalid');
    }
    const options = { type: 'png', width, margin: 2, errorCorrectionLevel: 'M', color: { dark: QR_COLOR_HEX[preferences.color], light: '#ffffffff' } } as const;
    const qrCode = createQrCode(code, options);
    const png = await new Promise<Buffer>((resolve, reject) => renderToBuffer(qrCode, options, (error, data) => (error ? reject(error) : resolve(data))));
    return { status: 200, binaryBody: png, headers: { 'Content-Type': 'image/png' } };
  },
);
