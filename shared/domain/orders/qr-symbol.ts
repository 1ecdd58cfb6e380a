/**
 * A QR code's modules (error correction M), encoded by `qrcode` with the mask `qrcode` itself picks, but
 * picked here at a fraction of the cost: on a cold start `qrcode`'s mask choice was about half of the
 * encoder's CPU (it applies, scores and undoes each of the 8 masks module by module, through method calls).
 * This scores the same 8 masks with `qrcode`'s own penalty rules (lib/core/mask-pattern.js: N1 runs of 5+,
 * N2 2x2 blocks, N3 finder-like 1:1:3:1:1 runs with 4 light modules, N4 dark share) on each row and column
 * held as one integer, and keeps its tie rule (the lowest mask number among the lowest penalties): the code
 * drawn is the one `qrcode.create(text, { errorCorrectionLevel: 'M' })` draws, module for module
 * (test/pos/qr-symbol.test.ts compares them).
 */
// The encoder alone: the package's entry point also loads every renderer (pngjs and more, ~60 KiB per bundle).
import { create } from 'qrcode/lib/core/qrcode.js';
import { getEncodedBits } from 'qrcode/lib/core/format-info.js';

export interface QrSymbol {
  size: number;
  /** True for a dark module. */
  dark(row: number, column: number): boolean;
}

const MASKS = 8;
/** `qrcode`'s penalty weights (mask-pattern.js `PenaltyScores`). */
const N1 = 3;
const N2 = 3;
const N3 = 40;
const N4 = 10;
/** The finder-like runs N3 counts, as `qrcode` reads an 11-module window (first module the highest bit). */
const N3_PATTERNS = [0x5d0, 0x05d];
/** Rows (and columns) as integers: up to 30 modules, versions 1-3 (a check's code is version 3, or 2 for digit-rich uuids). */
const MAX_FAST_SIZE = 30;

/** `qrcode`'s mask function (mask-pattern.js `getMaskAt`): true where the mask flips the module at (i, j). */
function maskAt(pattern: number, i: number, j: number): boolean {
  switch (pattern) {
    case 0: return (i + j) % 2 === 0;
    case 1: return i % 2 === 0;
    case 2: return j % 3 === 0;
    case 3: return (i + j) % 3 === 0;
    case 4: return (Math.floor(i / 2) + Math.floor(j / 3)) % 2 === 0;
    case 5: return ((i * j) % 2) + ((i * j) % 3) === 0;
    case 6: return (((i * j) % 2) + ((i * j) % 3)) % 2 === 0;
    default: return (((i * j) % 3) + ((i + j) % 2)) % 2 === 0;
  }
}

function bitCount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** The cells of format bit i (setupFormatInfo in qrcode.js): [row, column] of its vertical and horizontal copy. */
function formatCells(size: number, i: number): [number, number, number, number] {
  const vertical = i < 6 ? i : i < 8 ? i + 1 : size - 15 + i;
  const horizontal = i < 8 ? size - i - 1 : i < 9 ? 15 - i : 15 - i - 1;
  return [vertical, 8, 8, horizontal];
}

/** N1 + N3 of one row or column of `size` modules (bit c = module c). */
function linePenalty(line: number, size: number): number {
  // Bit c: modules c and c+1 alike; then: modules c..c+4 alike (a window of a run of 5 or more).
  const alike = ~(line ^ (line >>> 1)) & ((1 << (size - 1)) - 1);
  const five = alike & (alike >>> 1) & (alike >>> 2) & (alike >>> 3);
  // A run of n >= 5 scores 3 + (n - 5) = its n - 4 windows + 2 (one per run: the windows' first bits).
  let penalty = bitCount(five) + 2 * bitCount(five & ~(five << 1));
  const windows = (1 << (size - 10)) - 1;
  for (const pattern of N3_PATTERNS) {
    let match = windows;
    for (let k = 0; k <= 10; k++) match &= (pattern >> (10 - k)) & 1 ? line >>> k : ~(line >>> k);
    penalty += N3 * bitCount(match);
  }
  return penalty;
}

/** Every mask repeats every 12 rows and every 12 columns (i and j enter `maskAt` mod 2, 3, 4 or 6). */
const MASK_PERIOD = 12;

/** A 12-module stretch of a mask repeated along a line of `size` modules. */
function repeated(stretch: number, size: number): number {
  return (stretch | (stretch << MASK_PERIOD) | (stretch << (2 * MASK_PERIOD))) & ((1 << size) - 1);
}

/** The rows (bit c = column c) of the symbol `qrcode` would draw, and its mask, from its symbol drawn with mask 0. */
export function bestMaskRows(size: number, data: Uint8Array, reserved: Uint8Array, formatBits: (mask: number) => number): { rows: number[]; mask: number } {
  // One pass per direction with the line in a local: cheaper, cold, than updating two arrays per module.
  const masked: number[] = [];
  const free: number[] = [];
  for (let row = 0; row < size; row++) {
    let line = 0;
    let freeLine = 0;
    for (let column = 0, index = row * size; column < size; column++, index++) {
      if (data[index]) line |= 1 << column;
      if (!reserved[index]) freeLine |= 1 << column;
    }
    masked.push(line);
    free.push(freeLine);
  }
  const maskedColumns: number[] = [];
  const freeColumns: number[] = [];
  for (let column = 0; column < size; column++) {
    let line = 0;
    let freeLine = 0;
    for (let row = 0, index = column; row < size; row++, index += size) {
      if (data[index]) line |= 1 << row;
      if (!reserved[index]) freeLine |= 1 << row;
    }
    maskedColumns.push(line);
    freeColumns.push(freeLine);
  }
  const maskLines = (mask: number) => {
    const rows: number[] = [];
    const columns: number[] = [];
    for (let k = 0; k < MASK_PERIOD; k++) {
      let row = 0;
      let column = 0;
      for (let l = 0; l < MASK_PERIOD; l++) {
        if (maskAt(mask, k, l)) row |= 1 << l;
        if (maskAt(mask, l, k)) column |= 1 << l;
      }
      rows.push(repeated(row, size));
      columns.push(repeated(column, size));
    }
    return { rows, columns };
  };
  // Mask 0 undone on the modules it covers; the format cells (mask 0's format bits) cleared, each mask's set below.
  const mask0 = maskLines(0);
  const unmasked = masked.map((line, row) => line ^ (mask0.rows[row % MASK_PERIOD]! & free[row]!));
  const unmaskedColumns = maskedColumns.map((line, column) => line ^ (mask0.columns[column % MASK_PERIOD]! & freeColumns[column]!));
  const cells = Array.from({ length: 15 }, (_, i) => formatCells(size, i));
  for (const [r1, c1, r2, c2] of cells) {
    unmasked[r1]! &= ~(1 << c1);
    unmaskedColumns[c1]! &= ~(1 << r1);
    unmasked[r2]! &= ~(1 << c2);
    unmaskedColumns[c2]! &= ~(1 << r2);
  }
  let best = { rows: unmasked, mask: 0 };
  let lowest = Infinity;
  for (let mask = 0; mask < MASKS; mask++) {
    const lines = mask === 0 ? mask0 : maskLines(mask);
    const rows = unmasked.map((line, row) => line ^ (lines.rows[row % MASK_PERIOD]! & free[row]!));
    const columns = unmaskedColumns.map((line, column) => line ^ (lines.columns[column % MASK_PERIOD]! & freeColumns[column]!));
    const format = formatBits(mask);
    cells.forEach(([r1, c1, r2, c2], i) => {
      if (((format >> i) & 1) === 0) return;
      rows[r1]! |= 1 << c1;
      columns[c1]! |= 1 << r1;
      rows[r2]! |= 1 << c2;
      columns[c2]! |= 1 << r2;
    });
    let penalty = 0;
    let darkCount = 0;
    for (let i = 0; i < size; i++) {
      penalty += linePenalty(rows[i]!, size) + linePenalty(columns[i]!, size);
      darkCount += bitCount(rows[i]!);
      if (i + 1 < size) {
        const above = rows[i]!;
        const below = rows[i + 1]!;
        const same = ~(above ^ below);
        penalty += N2 * bitCount(same & (same >>> 1) & ~(above ^ (above >>> 1)) & ((1 << (size - 1)) - 1));
      }
    }
    const modules = size * size;
    penalty += N4 * Math.abs(Math.ceil((darkCount * 100) / modules / 5) - 10);
    if (penalty < lowest) {
      lowest = penalty;
      best = { rows, mask };
    }
  }
  return best;
}

/** `text`'s QR code at error correction M, as `qrcode` draws it (its mask choice included). */
export function qrSymbol(text: string): QrSymbol {
  const symbol = create(text, { errorCorrectionLevel: 'M', maskPattern: 0 });
  const { size, data, reservedBit } = symbol.modules;
  if (size > MAX_FAST_SIZE) {
    const { modules } = create(text, { errorCorrectionLevel: 'M' });
    return { size, dark: (row, column) => modules.get(row, column) === 1 };
  }
  const level = symbol.errorCorrectionLevel as unknown as { bit: number };
  const { rows } = bestMaskRows(size, data, reservedBit, (mask) => getEncodedBits(level, mask));
  return { size, dark: (row, column) => ((rows[row]! >>> column) & 1) === 1 };
}
