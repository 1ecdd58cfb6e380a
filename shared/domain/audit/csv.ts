/**
 * CSV as RFC 4180 writes it (CRLF lines, a field quoted when it holds a quote, comma or line break, quotes doubled),
 * safe to open in a spreadsheet: a text cell starting with = + - @ (or a tab or carriage return) would run as a
 * formula (OWASP "CSV injection"), so it is prefixed with ' and shown as the text it is.
 */

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'string') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One line of cells, ended by CRLF. */
export function csvLine(values: readonly (string | number | boolean | null | undefined)[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}
