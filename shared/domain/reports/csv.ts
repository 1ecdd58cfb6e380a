/**
 * CSV (RFC 4180) for the exports: a header row, then one row per record, lines ended by CRLF. A text cell with a
 * comma, a quote or a line break is quoted (quotes doubled); a text cell a spreadsheet would run as a formula
 * (starting with `=`, `+`, `-`, `@`, a tab or a carriage return: OWASP's CSV injection list) gets a leading `'`, so
 * it is shown, never evaluated. Numbers are written as they are (a negative amount stays a number).
 */
export type CsvCell = string | number | null;

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: CsvCell): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const shown = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(shown) ? `"${shown.replaceAll('"', '""')}"` : shown;
}

export function csvText(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return [header, ...rows].map((row) => `${row.map(csvCell).join(',')}\r\n`).join('');
}
