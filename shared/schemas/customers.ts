/** A merchant's customers (docs/merchant-api.md, "Customers"): the lookup, the credit grant and the unlocking requests. */
import * as z from '#shared/schemas/zod.ts';
import { pathId } from './params.ts';
import { emailField, phoneField } from './users.ts';

/** `/v15/merchants/{merchant_id}/customer_lookups` */
export const merchantCustomersParams = z.object({ merchant_id: pathId });
/** `/v15/merchants/{merchant_id}/customers/{user_id}` (and its credit grants and unlockings) */
export const merchantCustomerParams = z.object({ merchant_id: pathId, user_id: pathId });

/**
 * POST .../customer_lookups: an exact email or a phone, exactly one of the two (the body, not the URL: neither ever
 * lands in an access log or a Link).
 */
export const customerLookupBody = z.object({
  customer_lookup: z
    .object({
      email: z.optional(emailField.check(z.describe('Exact, as the customer registered it (case and surrounding spaces do not matter)'))),
      phone: z.optional(
        phoneField.check(z.describe('As typed in any usual form ("(617) 555-0100", "+1 617-555-0100"); without a country code it is read as a US number')),
      ),
    })
    .check(
      z.meta({ examples: [{ email: 'jane.doe@example.com' }] }),
      z.refine((lookup) => (lookup.email === undefined) !== (lookup.phone === undefined), {
        error: 'must name exactly one of email and phone',
        path: ['base'],
      }),
    ),
});

/** POST .../customers/{user_id}/credit_grants: the POS grant's fields, the customer named by the path. */
export const customerCreditGrantBody = z.object({
  credit_grant: z.object({
    value_amount: z
      .number()
      .check(
        z.int(),
        z.gte(-100_000_000),
        z.lte(100_000_000),
        z.describe("Cents, 1 to 50,000 ($500) per grant, within the merchant's daily budget of credit given by hand"),
      ),
    duration_in_seconds: z.nullish(
      z.number().check(z.int(), z.gte(-1e12), z.lte(1e12), z.describe('How long the credit lasts: 1 second to 7 years; 1 year if absent')),
    ),
    message: z.pipe(
      z.nullish(z.string().check(z.maxLength(1000))),
      z.transform((value) => value ?? null),
    ),
  }),
});
export type CustomerCreditGrant = z.output<typeof customerCreditGrantBody>['credit_grant'];

/** POST .../customers/{user_id}/campaign_unlockings: one of the merchant's locked campaigns, optionally until a time. */
export const customerUnlockBody = z.object({
  campaign_unlocking: z.object({
    campaign_id: z.number().check(z.int(), z.positive(), z.lte(1e15)),
    expires_at: z.nullish(
      z.string().check(z.maxLength(64), z.describe('ISO 8601 with its offset, or MM/DD/YYYY (through that day, UTC); absent: no end of its own')),
    ),
  }),
});
export type CustomerUnlock = z.output<typeof customerUnlockBody>['campaign_unlocking'];
