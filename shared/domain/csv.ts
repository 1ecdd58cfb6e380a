/**
 * CSV as RFC 4180 writes it, for every export (the audit log, the orders, the ledger): a header row, then one row
 * per record, lines ended by CRLF; a text cell holding a quote, comma or line break is quoted, its quotes doubled.
 * Safe to open in a spreadsheet: a text cell starting with = + - @, a tab or a carriage return would run as a
 * formula (OWASP "CSV injection"), so it gets a leading ' and is shown as the text it is. Numbers and booleans are
 * written as they are (a negative amount stays a number); null and undefined are empty cells.
 */
export type CsvCell = string | number | boolean | null | undefined;

const NEEDS_QUOTES = /[",\r\n]/;
/** Every quote of a cell (a global regex: measured faster than `replaceAll` with a string on JSON snapshot cells). */
const QUOTES = /"/g;

/** The first characters OWASP lists as starting a formula: = + - @ tab carriage return. */
function startsFormula(text: string): boolean {
  // A char code switch, not a regex: this runs on every cell of an export of thousands.
  switch (text.charCodeAt(0)) {
    case 0x3d: // =
    case 0x2b: // +
    case 0x2d: // -
    case 0x40: // @
    case 0x09: // tab
    case 0x0d: // carriage return
      return true;
    default:
      return false;
  }
}

export function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'string') return String(value);
  const shown = startsFormula(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(shown) ? `"${shown.replace(QUOTES, '""')}"` : shown;
}

/** One line of cells, ended by CRLF. */
export function csvLine(values: readonly CsvCell[]): string {
  let line = '';
  for (let index = 0; index < values.length; index += 1) line += index === 0 ? csvCell(values[index]) : `,${csvCell(values[index])}`;
  return `${line}\r\n`;
}

/** The header row, then one line per row: the whole file as one string. */
export function csvText(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  let text = csvLine(header);
  for (const row of rows) text += csvLine(row);
  return text;
}
