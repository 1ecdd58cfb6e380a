/**
 * A published remote check as the POS shows it (checks-create, checks-update): its QR code drawn as text.
 * Apart from checks.ts so that only those two functions bundle the QR encoder: `qrcode` declares no
 * `sideEffects: false`, so esbuild keeps its modules in every bundle that imports the module importing it
 * (checks-show and checks-orders-create carried ~19 KiB of encoder they never ran; docs/benchmarks.md, "Cold start").
 */
// The encoder alone: the package's entry point also loads every renderer (pngjs and more, ~60 KiB per bundle).
import { create as createQrCode } from 'qrcode/lib/core/qrcode.js';
import type { CheckItem } from './checks.ts';

/** The text the check's QR code holds: the customer's app claims the check with the uuid after `CHECK:`. */
export function checkQrText(uuid: string): string {
  // Upper case keeps it in the QR alphanumeric mode: a smaller code.
  return `CHECK:${uuid.toUpperCase()}`;
}

/**
 * The QR code as text rows (LevelUp's `qr_code_character_art`): two module rows per character row, dark modules
 * drawn as blocks (U+2588 both, U+2580 upper, U+2584 lower, U+00A0 neither), a one-module quiet zone, rows joined by `,`.
 */
export function qrCodeCharacterArt(text: string): string {
  const { modules } = createQrCode(text, { errorCorrectionLevel: 'M' });
  const size = modules.size;
  const dark = (row: number, column: number) => row >= 0 && column >= 0 && row < size && column < size && modules.get(row, column) === 1;
  const rows: string[] = [];
  for (let top = -1; top < size + 1; top += 2) {
    let line = '';
    for (let column = -1; column < size + 1; column++) {
      const upper = dark(top, column);
      const lower = dark(top + 1, column);
      line += upper && lower ? '\u2588' : upper ? '\u2580' : lower ? '\u2584' : '\u00a0';
    }
    rows.push(line);
  }
  return rows.join(',');
}

/** The art of the check's QR code: it depends on the check's uuid alone (updateCheck draws it before the update lands). */
export function checkQrCodeArt(uuid: string): string {
  return qrCodeCharacterArt(checkQrText(uuid));
}

/** The answer of checks-create and checks-update, with the check's QR code art already drawn. */
export function publishedCheckAnswer(check: CheckItem, art: string) {
  return { check: { locator: check.locator, uuid: check.uuid, qr_code_character_art: art } };
}

export function serializePublishedCheck(check: CheckItem) {
  return publishedCheckAnswer(check, checkQrCodeArt(check.uuid));
}
