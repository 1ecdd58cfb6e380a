/**
 * The event body as GET /v15/events lists it and a webhook delivers it, one shape per type (docs/events.md).
 * Apart from shared/schemas/events.ts so the endpoint functions do not load every resource's schema.
 */
import * as z from 'zod';
import { integerId, timestamp, uuid } from './common.ts';
import { creditCard } from './credit-cards.ts';
import { apiErrors } from './errors.ts';
import { EVENT_ID_PATTERN, EVENT_TYPES, type EventType } from './events.ts';
import { claimResponse, reward } from './loyalty.ts';
import { giftCardValueAdditionResponse, merchantOrderResponse } from './money.ts';
import { completedOrderAheadResponse, orderAheadOrderResponse } from './order-ahead.ts';
import { giftCardValueRemovalResponse } from './pos-money.ts';
import { named, schema } from './registry.ts';

/** The merchant's order as the refund answers it; `refunded_at` is null until it is refunded. */
const merchantOrderData = /* @__PURE__ */ schema(() => merchantOrderResponse.shape.order.extend({ refunded_at: timestamp.nullable() }));

/** Each type's `data`: the resource as the API shows it to that audience (docs/events.md, the catalogue). */
const EVENT_DATA = /* @__PURE__ */ schema(() => ({
  'order.completed': merchantOrderData,
  'order.refunded': merchantOrderData,
  'gift_card.value_added': giftCardValueAdditionResponse.shape.gift_card_value_addition.extend({ loyalty_id: integerId }),
  'gift_card.value_removed': giftCardValueRemovalResponse.shape.gift_card_value_removal.extend({ loyalty_id: integerId }),
  'campaign.unlocked': z.object({ target_campaign_id: integerId, user_id: integerId, expires_at: timestamp.nullable(), unlocked_at: timestamp }),
  'order_ahead.validated': orderAheadOrderResponse.shape.order,
  'order_ahead.invalidated': z.object({ uuid, state: z.literal('externally_invalid'), errors: apiErrors }),
  'order_ahead.completed': completedOrderAheadResponse.shape.order,
  'reward.earned': reward.omit({ usable_now: true }).extend({ merchant_id: integerId, order_uuid: uuid.nullable().describe('null for a progress adjustment') }),
  'claim.created': claimResponse.shape.claim.extend({ merchant_id: integerId, user_id: integerId }),
  'credit_card.created': creditCard,
  'credit_card.deactivated': creditCard,
} satisfies Record<EventType, z.ZodType>));

const eventOf = <T extends EventType>(type: T) =>
  z.object({
    id: z.string().regex(EVENT_ID_PATTERN),
    type: z.literal(type),
    created_at: timestamp,
    resource: z.object({ type: z.string(), id: z.string() }),
    sequence: integerId.describe('1 for the resource\'s first event, then one more for each'),
    data: EVENT_DATA[type],
  });

export const eventResponse = /* @__PURE__ */ schema(() => named(
  'Event',
  z.object({
    event: z.discriminatedUnion('type', EVENT_TYPES.map((type) => eventOf(type)) as unknown as [ReturnType<typeof eventOf>, ...ReturnType<typeof eventOf>[]]),
  }),
  'One event; its `data` is the shape its `type` names.',
));

export const eventList = /* @__PURE__ */ schema(() => z.array(eventResponse));

