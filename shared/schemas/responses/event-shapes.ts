/**
 * The event body as GET /v15/events lists it and a webhook delivers it, one shape per type (docs/events.md).
 * Each type's `data` is the resource as its own operation answers it, so this module imports the areas' answers.
 */
import * as z from '#shared/schemas/zod.ts';
import { EVENT_ID_PATTERN } from '#shared/schemas/events.ts';
import { EVENT_TYPES, type EventType } from '#shared/schemas/vocabularies.ts';
import { integerId, timestamp, uuid } from './common.ts';
import { creditCard } from './credit-cards.ts';
import { apiErrors } from './errors.ts';
import { claimResponse, reward } from './loyalty.ts';
import { giftCardValueAdditionResponse, merchantOrderResponse } from './money.ts';
import { completedOrderAheadResponse, orderAheadOrderResponse } from './order-ahead.ts';
import { giftCardValueRemovalResponse } from './pos-money.ts';
import { named } from './registry.ts';

/** The merchant's order as the refund answers it; `refunded_at` is null until it is refunded. */
const merchantOrderData = z.extend(merchantOrderResponse.shape.order, { refunded_at: z.nullable(timestamp) });

/** Each type's `data`: the resource as the API shows it to that audience (docs/events.md, the catalogue). */
const EVENT_DATA = {
  'order.completed': merchantOrderData,
  'order.refunded': merchantOrderData,
  'gift_card.value_added': z.extend(giftCardValueAdditionResponse.shape.gift_card_value_addition, { loyalty_id: integerId }),
  'gift_card.value_removed': z.extend(giftCardValueRemovalResponse.shape.gift_card_value_removal, { loyalty_id: integerId }),
  'campaign.unlocked': z.object({ target_campaign_id: integerId, user_id: integerId, expires_at: z.nullable(timestamp), unlocked_at: timestamp }),
  'order_ahead.validated': orderAheadOrderResponse.shape.order,
  'order_ahead.invalidated': z.object({ uuid, state: z.literal('externally_invalid'), errors: apiErrors }),
  'order_ahead.completed': completedOrderAheadResponse.shape.order,
  'reward.earned': z.extend(z.omit(reward, { usable_now: true }), {
    merchant_id: integerId,
    order_uuid: z.nullable(uuid).check(z.describe('null for a progress adjustment')),
  }),
  'claim.created': z.extend(claimResponse.shape.claim, { merchant_id: integerId, user_id: integerId }),
  'credit_card.created': creditCard,
  'credit_card.deactivated': creditCard,
} satisfies Record<EventType, z.ZodMiniType>;

const eventOf = <T extends EventType>(type: T) =>
  z.object({
    id: z.string().check(z.regex(EVENT_ID_PATTERN)),
    type: z.literal(type),
    created_at: timestamp,
    resource: z.object({ type: z.string(), id: z.string() }),
    sequence: integerId.check(z.describe("1 for the resource's first event, then one more for each")),
    data: EVENT_DATA[type],
  });

type EventShape = ReturnType<typeof eventOf>;

/** `order.completed` -> `OrderCompletedEvent`: each type's shape under its own name (the `webhooks` section refers to it). */
const componentName = (type: EventType): string =>
  `${type
    .split(/[._]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('')}Event`;

/** Each type's event, as `GET /v15/events` lists it and a webhook delivers it inside `{"event": ...}`. */
export const EVENT_SHAPES = Object.fromEntries(
  EVENT_TYPES.map((type) => [type, named(componentName(type), eventOf(type), `A \`${type}\` event (docs/events.md).`)]),
) as Record<EventType, EventShape>;

export const eventResponse = named(
  'Event',
  z.object({
    event: z.discriminatedUnion('type', EVENT_TYPES.map((type) => EVENT_SHAPES[type]) as unknown as [EventShape, ...EventShape[]]),
  }),
  'One event; its `data` is the shape its `type` names.',
);

export const eventList = z.array(eventResponse);
