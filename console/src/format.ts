/** Days are UTC dates across the API (docs/merchant-api.md, "Reports and exports", "Orders"). */
export const utcDate = (time: number): string => new Date(time).toISOString().slice(0, 10);

const money = new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD' });
/** An amount in cents, as the till shows it. */
export const formatMoney = (cents: number): string => money.format(cents / 100);

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
/** A timestamp in UTC, as the days are counted. */
export const formatTime = (timestamp: string): string => `${dateTime.format(new Date(timestamp))} UTC`;
