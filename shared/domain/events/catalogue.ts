/**
 * The event catalogue (docs/events.md): every type, the resource it is about and who receives it, and
 * the one line a transaction builder adds to emit one:
 *
 *   add('event', ...(await recordEvent('gift_card.value_removed', giftCardResource(merchantId, userId), merchantAudience(merchantId), data)));
 *
 * The items go into the change's own TransactWriteItems (shared/db/outbox.ts), so the event exists if and
 * only if the change committed; the table's stream carries it to the delivery path (delivery.ts).
 */
import { keys, type Key } from '#shared/db/keys.ts';
import { eventItems, type EventItemOptions } from '#shared/db/outbox.ts';
import type { TransactItem } from '#shared/db/transactions.ts';
import { EVENT_TYPES, type EventType } from '#shared/schemas/vocabularies.ts';

export { EVENT_TYPES, type EventType };

export type AudienceKind = 'merchant' | 'app';

/** Which kind of tenant receives each type: a merchant its orders, gift cards and campaigns; an app its users'. */
export const EVENT_AUDIENCE: Record<EventType, AudienceKind> = {
  'order.completed': 'merchant',
  'order.refunded': 'merchant',
  'gift_card.value_added': 'merchant',
  'gift_card.value_removed': 'merchant',
  'campaign.unlocked': 'merchant',
  'order_ahead.validated': 'app',
  'order_ahead.invalidated': 'app',
  'order_ahead.completed': 'app',
  'reward.earned': 'app',
  'claim.created': 'app',
  'credit_card.created': 'app',
  'credit_card.deactivated': 'app',
};

export interface Audience {
  kind: AudienceKind;
  id: number;
}

export const merchantAudience = (merchantId: number): Audience => ({ kind: 'merchant', id: merchantId });
export const appAudience = (appId: number): Audience => ({ kind: 'app', id: appId });
/** The stored form of an audience (`merchant:5`), the partition of its events and endpoints. */
export const audienceKey = (audience: Audience): string => `${audience.kind}:${audience.id}`;

export interface EventResource {
  type: string;
  id: string;
}

export const orderResource = (orderUuid: string): EventResource => ({ type: 'order', id: orderUuid });
/** A user's gift card value at one merchant (the ledger account `giftcard:<user>:<merchant>`). */
export const giftCardResource = (merchantId: number, userId: number): EventResource => ({ type: 'gift_card', id: `${merchantId}-${userId}` });
export const orderAheadResource = (orderUuid: string): EventResource => ({ type: 'order_ahead_order', id: orderUuid });
export const rewardResource = (rewardId: string): EventResource => ({ type: 'reward', id: rewardId });
export const claimResource = (campaignId: number, userId: number): EventResource => ({ type: 'claim', id: `${campaignId}-${userId}` });
export const campaignUnlockResource = (campaignId: number, userId: number): EventResource => ({ type: 'campaign_unlock', id: `${campaignId}-${userId}` });
export const creditCardResource = (cardId: number): EventResource => ({ type: 'credit_card', id: String(cardId) });

/** The key of a resource's event counter, for a caller that reads it with its own batch (`options.counter`). */
export const eventCounterKey = (resource: EventResource): Key => keys.eventSequence(resource.type, resource.id);

/**
 * The transaction items of one event; spread them into the change's transaction. `newResource` when the
 * change creates the resource (its first event: no counter to read); `counter` when the caller read it
 * already. The audience must be of the kind the catalogue names for the type, so no event reaches the
 * wrong kind of tenant.
 */
export async function recordEvent(
  type: EventType,
  resource: EventResource,
  audience: Audience,
  data: Record<string, unknown>,
  options: Pick<EventItemOptions, 'newResource' | 'counter'> = {},
): Promise<TransactItem[]> {
  if (EVENT_AUDIENCE[type] !== audience.kind) throw new Error(`${type} goes to a ${EVENT_AUDIENCE[type]}, not to a ${audience.kind}`);
  return eventItems({ type, resource, audience: audienceKey(audience), data }, options);
}

/** The tenant a merchant-or-app request acts for: the merchant of a merchant token, else the app of an app token. */
export function audienceOf(credentials: { merchant?: { merchantId: number }; app?: { appId: number } }): Audience {
  if (credentials.merchant) return merchantAudience(credentials.merchant.merchantId);
  if (credentials.app) return appAudience(credentials.app.appId);
  throw new Error('a merchant-or-app route was served without a merchant or app credential');
}
