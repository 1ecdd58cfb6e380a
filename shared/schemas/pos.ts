/**
 * The POS surface beyond the contract (docs/pos.md): what remote checks accept. Shapes follow what LevelUp's SDKs
 * send (the reference's P16-P19); the answers of P11-P21 are in shared/schemas/responses/pos.ts.
 */
import * as z from '#shared/schemas/zod.ts';
import { amounts, itemsSchema } from './money.ts';

// ---------------------------------------------------------------------------------------------
// Remote checks (P16-P19)

/** A check as the POS publishes it (PUT /v15/checks, PUT /v15/checks/:uuid): the C# SDK always sends every key. */
export const checkBody = z.object({
  check: z.object({
    location_id: z.number().check(z.int()),
    spend_amount: amounts.required,
    tax_amount: amounts.optional,
    exemption_amount: amounts.optional,
    // The SDK's default: a remote check may be paid in part, the rest by another tender.
    partial_authorization_allowed: z.pipe(
      z.nullish(z.boolean()),
      z.transform((value) => value ?? true),
    ),
    cashier: z.nullish(z.string().check(z.maxLength(255))),
    register: z.nullish(z.string().check(z.maxLength(255))),
    identifier_from_merchant: z.nullish(z.string().check(z.maxLength(255))),
    items: itemsSchema,
  }),
});
export type CheckRequest = z.output<typeof checkBody>['check'];

/** A check's uuid in a path: 32 hex characters, any case (the QR code holds it upper-cased). */
export const checkParams = z.object({
  uuid: z.pipe(
    z.string().check(z.regex(/^[0-9a-fA-F]{32}$/)),
    z.transform((value) => value.toLowerCase()),
  ),
});

/**
 * POST /v15/checks/:uuid/orders: the POS finalises (`applied_discount_amount`, `tax_amount`, `spend_amount`, as the
 * C# SDK sends them) or the customer's app claims (optionally with a `tip_amount`); the token says which.
 */
export const checkOrderBody = z.pipe(
  z.optional(
    z.object({
      order: z.pipe(
        z.nullish(
          z.object({
            applied_discount_amount: amounts.optional,
            tax_amount: amounts.optional,
            spend_amount: z.nullish(amounts.required),
            tip_amount: amounts.optional,
          }),
        ),
        z.transform((order) => order ?? { applied_discount_amount: 0, tax_amount: 0, spend_amount: undefined, tip_amount: 0 }),
      ),
    }),
  ),
  z.transform((body) => body?.order ?? { applied_discount_amount: 0, tax_amount: 0, spend_amount: undefined, tip_amount: 0 }),
);
export type CheckOrderRequest = z.output<typeof checkOrderBody>;
