/** What the management API's order operations answer (the requests: shared/schemas/orders-management.ts). */
import * as z from '#shared/schemas/zod.ts';
import { ORDER_STATES } from '#shared/schemas/orders-management.ts';
import { cents, integerId } from './common.ts';
import { merchantOrderV14Fields, merchantOrderV15Fields } from './pos.ts';
import { namedItemList, resource } from './registry.ts';

const state = z.enum(ORDER_STATES).check(z.describe('`refunded` once refunded'));

export const managedOrderList = namedItemList(
  'ManagedOrderRow',
  'order',
  { ...merchantOrderV14Fields, state },
  "An order as the management API's order list shows it.",
);

export const managedOrderResponse = resource(
  'ManagedOrder',
  'order',
  {
    ...merchantOrderV15Fields,
    state,
    location_name: z.nullable(z.string()),
    charged_amount: cents.check(z.describe('Charged to the card (spend and tip)')),
    gift_card_total_amount: cents.check(z.describe("Paid from the customer's gift card value at the merchant (tip included)")),
    gift_card_tip_amount: cents,
    applied_discount_amount: cents.check(z.describe("Paid from the customer's credit at the merchant")),
    refund: z.nullable(
      z.object({
        approved_by_staff_id: z
          .nullable(integerId)
          .check(z.describe('The staff member who approved the refund; null: the shared login or code, or none required')),
        credit_reversed_amount: cents.check(z.describe('Credit the order had earned, taken back')),
        detached_refund_reversed_amount: cents.check(z.describe('Detached refund credit taken back as the refunded charge no longer covered it')),
      }),
    ),
  },
  "One of the merchant's orders in detail, with its refund (management API).",
);
