/**
 * shared/domain/orders/qr-symbol.ts picks the mask of a check's QR code with `qrcode`'s own penalty rules
 * on rows held as integers: the code drawn must be `qrcode`'s, module for module, whichever mask wins
 * (the C# SDK shows the published art; docs/pos.md "Remote checks").
 */
import QRCode from 'qrcode';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkQrText, qrCodeCharacterArt } from '#shared/domain/orders/published-checks.ts';
import { qrSymbol } from '#shared/domain/orders/qr-symbol.ts';

function differences(text: string): { mask: number; size: number; differing: number } {
  const expected = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const symbol = qrSymbol(text);
  expect(symbol.size).toBe(expected.modules.size);
  let differing = 0;
  for (let row = 0; row < symbol.size; row++) {
    for (let column = 0; column < symbol.size; column++) {
      if (symbol.dark(row, column) !== (expected.modules.get(row, column) === 1)) differing++;
    }
  }
  return { mask: Number(expected.maskPattern), size: symbol.size, differing };
}

/** A uuid whose hex letters (or digits) are replaced: digit-rich ones give `qrcode` numeric segments. */
function uuidOf(replace: RegExp, alphabet: string): string {
  return randomUUID()
    .toUpperCase()
    .replace(replace, () => alphabet[Math.floor(Math.random() * alphabet.length)]!);
}

describe("a check's QR code", () => {
  it("draws qrcode's symbol, module for module, for random check uuids: every mask wins somewhere", () => {
    const masks = new Set<number>();
    for (let i = 0; i < 1500; i++) {
      const { mask, differing } = differences(checkQrText(randomUUID()));
      expect(differing).toBe(0);
      masks.add(mask);
    }
    expect([...masks].sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('draws it for digit-only and letter-only uuids and the extremes', () => {
    const texts = [
      ...Array.from({ length: 200 }, () => `CHECK:${uuidOf(/[A-F]/g, '0123456789')}`),
      ...Array.from({ length: 200 }, () => `CHECK:${uuidOf(/[0-9]/g, 'ABCDEF')}`),
      'CHECK:00000000-0000-0000-0000-000000000000',
      'CHECK:FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF',
    ];
    for (const text of texts) expect(differences(text).differing, text).toBe(0);
  });

  it("draws it for every size: versions 1-3 by rows as integers, larger ones by qrcode's own choice", () => {
    const sizes = new Set<number>();
    for (let length = 1; length <= 120; length++) {
      const text = Array.from({ length }, (_, i) => '0123456789ABCDEF-:'[(i * 7 + length) % 18]).join('');
      const { size, differing } = differences(text);
      expect(differing, text).toBe(0);
      sizes.add(size);
    }
    expect([21, 25, 29, 33].every((size) => sizes.has(size))).toBe(true);
  });

  it("draws the art from it: rows of two module rows, a one-module quiet zone", () => {
    const text = checkQrText(randomUUID());
    const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
    const rows = qrCodeCharacterArt(text).split(',');
    expect(rows).toHaveLength(Math.ceil((modules.size + 2) / 2));
    const dark = (row: number, column: number) => row >= 0 && column >= 0 && row < modules.size && column < modules.size && modules.get(row, column) === 1;
    rows.forEach((line, index) => {
      const top = 2 * index - 1;
      const expected = Array.from({ length: modules.size + 2 }, (_, i) => {
        const upper = dark(top, i - 1);
        const lower = dark(top + 1, i - 1);
        return upper && lower ? '\u2588' : upper ? '\u2580' : lower ? '\u2584' : '\u00a0';
      }).join('');
      expect(line).toBe(expected);
    });
  });
});
