import * as z from 'zod';

/** Integer ids (DynamoDB atomic counters), always within the safe-integer range. */
export const integerId = z.number().int();
/** Amounts are integers in cents. */
export const cents = z.number().int().describe('Amount in cents');
/**
 * ISO 8601 date and time with offset (this service writes UTC, `Z`). Documented as JSON Schema's
 * `date-time` format rather than zod's long pattern: these schemas describe answers, they parse nothing.
 */
export const timestamp = z.string().meta({ format: 'date-time' });
export const uuid = z.string().min(1);
export const url = z.string().url();
