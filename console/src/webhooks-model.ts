import { useCallback } from 'react';
import type { components } from '../../clients/typescript/index.ts';
import { useLoaded } from './loaded.ts';
import { answered, ConsoleError, type PageProps } from './session.ts';

export type Endpoint = components['schemas']['WebhookEndpoint']['webhook_endpoint'];
export type Delivery = components['schemas']['WebhookDelivery']['delivery'];
export type EventType = Endpoint['events'][number];

/** The events a merchant's endpoint may take (docs/events.md, the catalogue's merchant audience), in words. */
export const MERCHANT_EVENT_TYPES = [
  ['order.completed', 'An order is completed'],
  ['order.refunded', 'An order is refunded'],
  ['gift_card.value_added', 'Gift card value is added'],
  ['gift_card.value_removed', 'Gift card value is removed'],
  ['campaign.unlocked', 'A campaign is unlocked for a customer'],
] as const satisfies readonly (readonly [EventType, string])[];

/** An event type as a person reads it (the API's name for the others). */
export function eventTypeWords(type: string): string {
  return MERCHANT_EVENT_TYPES.find(([name]) => name === type)?.[1] ?? type;
}

export const DELIVERY_STATE_WORDS: Record<Delivery['state'], string> = {
  delivered: 'Delivered',
  retrying: 'Retrying',
  failed: 'Failed (given up after 7 days)',
};

/** What the receiver answered on the last attempt. */
export function lastAnswerWords(delivery: Pick<Delivery, 'last_status' | 'last_error'>): string {
  if (delivery.last_status !== null) return `HTTP ${delivery.last_status}`;
  if (delivery.last_error === 'timeout') return 'No answer within 10 seconds';
  if (delivery.last_error === 'address_not_allowed') return 'Address not allowed (private network)';
  return 'Could not connect';
}

/**
 * The smallest event id of an instant: event ids are `evt_`, the instant in ms (9 base-36 digits) and 16 hex digits, and
 * sort by time (docs/events.md), so "after this id" is "every event from this instant on".
 */
export function eventIdAt(epochMs: number): string {
  return `evt_${Math.max(0, Math.floor(epochMs)).toString(36).padStart(9, '0')}${'0'.repeat(16)}`;
}

/** The periods a replay sends again (the API keeps 30 days of events). */
export const REPLAY_PERIODS = [
  ['3600000', 'the last hour'],
  ['86400000', 'the last 24 hours'],
  ['604800000', 'the last 7 days'],
  ['2592000000', 'the last 30 days'],
] as const;

/**
 * A replay refused by its limits (429 with Retry-After): the limits and when to try again, in words. Other failures are
 * the console's usual words.
 */
export function replayRefusal(response: Response, now = Date.now()): ConsoleError {
  const seconds = Number(response.headers.get('Retry-After'));
  const wait = Number.isFinite(seconds) && seconds > 0 ? seconds : 60;
  const minutes = Math.ceil(wait / 60);
  const at = new Date(now + wait * 1000).toISOString().slice(11, 16);
  const when =
    minutes >= 60 ? `in about ${Math.round(minutes / 60)} hours (after ${at} UTC)` : `in ${minutes} minute${minutes === 1 ? '' : 's'} (after ${at} UTC)`;
  return new ConsoleError(
    `Replays of this endpoint are limited to 3 every 15 minutes and 10 a day, and that limit is reached. Try again ${when}.`,
    429,
    response.headers.get('X-Request-Id') ?? undefined,
  );
}

/** The merchant's endpoints (`GET /v15/webhook_endpoints`; 204 is none). */
export function useEndpoints({ client }: Pick<PageProps, 'client'>) {
  const load = useCallback(async (): Promise<Endpoint[]> => {
    const answer = await client.GET('/v15/webhook_endpoints', {});
    if (answer.response.status === 204) return [];
    return answered(answer).map(({ webhook_endpoint }) => webhook_endpoint);
  }, [client]);
  return useLoaded(load);
}
