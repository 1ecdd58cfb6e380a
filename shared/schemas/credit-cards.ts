import * as z from 'zod';
import { integerId } from './common.ts';
import { named } from './registry.ts';

export const creditCard = named(
  'CreditCard',
  z.object({
    bin: z.string().describe('First six digits'),
    description: z.string(),
    expiration_month: z.number().int(),
    expiration_year: z.number().int(),
    id: integerId,
    last_4: z.string(),
    nickname: z.string(),
    promoted: z.boolean().describe("Whether it is the user's promoted payment instrument"),
    state: z.enum(['active', 'inactive']).describe('`active` may be charged, `inactive` may not'),
    type: z.string().describe('Card brand'),
  }),
);
export const creditCardResponse = named('CreditCardResponse', z.object({ credit_card: creditCard }));
