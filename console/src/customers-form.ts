/** Form helpers of the customers and gift cards pages (a candidate for a shared console/src/forms.ts). */

/** A form field's text as typed ('' when absent; a file input's value is no text). */
export function formText(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
}

/** A dollar amount as typed ("5", "5.00", "$5.5") in cents; undefined when it is not one. */
export function dollarsToCents(typed: string): number | undefined {
  const match = /^\$?\s*(\d{1,6})(?:\.(\d{1,2}))?$/.exec(typed.trim());
  if (!match) return undefined;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}
