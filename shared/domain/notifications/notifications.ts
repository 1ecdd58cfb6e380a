/**
 * The notifications an app user expects (docs/app-surface.md, "Push notifications"), read from the table's
 * stream (functions/events-stream.ts) so no money path waits for, or can be failed by, a push:
 *
 * | kind | stream record (new image) | to |
 * |---|---|---|
 * | `order_ahead.ready` | an order-ahead order written in state `completed` (the provider took it) | the order's app |
 * | `order_ahead.rejected` | an order-ahead order written in state `rejected` | the order's app |
 * | `reward.earned` | a reward item inserted with source `earned` | apps serving the merchant |
 * | `gift_card.received` | a gift card load inserted on a user's gift card account from anyone but the till (a gift card order, a held gift claimed) | apps serving the merchant |
 *
 * Each goes to the user's registered devices (devices.ts) of those apps. Once per change: a sent marker
 * (keys.pushSent) is written (conditionally) before the first push, so a retried batch or a state written twice sends
 * nothing again; a push that fails for a passing reason removes it and the batch is retried (a device already
 * reached may then get a second copy: better than none). A device the push service calls unreachable is
 * dropped. Texts carry the merchant's name and amounts, never the user's data.
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { db, table } from '#shared/db/client.ts';
import { keys } from '#shared/db/keys.ts';
import { createItem } from '#shared/db/transactions.ts';
import { getApp } from '#shared/domain/identity/apps.ts';
import { getMerchant } from '#shared/domain/merchants/merchants.ts';
import { log } from '#shared/log.ts';
import { pushSender, type PushMessage } from '#shared/push/sender.ts';
import { unregisterDevice, userDevices, type PushDeviceItem } from './devices.ts';

/** How long a sent notification's marker is kept: longer than a stream record lives (24 h) and its retries. */
const SENT_MARKER_DAYS = 3;

export const NOTIFICATION_KINDS = ['order_ahead.ready', 'order_ahead.rejected', 'reward.earned', 'gift_card.received'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** A stream record as the handler sees it: INSERT or MODIFY, and the item as written. */
export interface StreamChange {
  eventName: string;
  image: Record<string, unknown>;
}

/** A notification found in the stream, before its text (a merchant's name may have to be read). */
export interface PendingNotification {
  id: string;
  kind: NotificationKind;
  userId: number;
  /** Only this app's devices (the app an order-ahead order was placed through). */
  appId?: number;
  /** Only devices of apps that serve this merchant (global apps, or the merchant's own). */
  merchantId: number;
  /** The merchant's name when the record carries it. */
  merchantName?: string;
  text: (merchantName: string) => { title: string; body: string };
  data: Record<string, string | number>;
}

/**
 * Ledger kinds that put gift card value on a user's account: a load (a gift card order to a known user), and a
 * held gift's claim (`gift_claimed`, when the recipient's account is made: shared/domain/money/held-gifts.ts).
 */
export const GIFT_CARD_RECEIPTS = ['gift_card_load', 'gift_claimed'];

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;
const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const whole = (value: unknown): number | undefined => (typeof value === 'number' && Number.isSafeInteger(value) ? value : undefined);

function orderAheadNotification(image: Record<string, unknown>): PendingNotification | undefined {
  const uuid = text(image.uuid);
  const userId = whole(image.user_id);
  const appId = whole(image.app_id);
  const priced = image.priced as { merchant_id?: unknown; merchant_name?: unknown } | null | undefined;
  const merchantId = whole(priced?.merchant_id);
  if (!uuid || userId === undefined || appId === undefined || merchantId === undefined) return undefined;
  const common = { userId, appId, merchantId, merchantName: text(priced?.merchant_name), data: { order_uuid: uuid } };
  if (image.state === 'completed') {
    const completion = image.completion as { ready_at?: unknown; completed_at?: unknown } | undefined;
    const minutes = Math.round((Date.parse(String(completion?.ready_at)) - Date.parse(String(completion?.completed_at))) / 60_000);
    const when = Number.isFinite(minutes) && minutes > 0 ? ` and will be ready in about ${minutes} minute${minutes === 1 ? '' : 's'}` : '';
    return {
      ...common,
      id: `order_ahead.ready:${uuid}`,
      kind: 'order_ahead.ready',
      text: (merchant) => ({ title: merchant, body: `Your order is confirmed${when}.` }),
    };
  }
  if (image.state === 'rejected') {
    const rejection = image.rejection as { errors?: { message?: unknown }[]; charge_reversed?: unknown } | undefined;
    const given = text(rejection?.errors?.[0]?.message) ?? 'The restaurant could not take it.';
    const reason = /[.!?]$/.test(given) ? given : `${given}.`;
    const money = rejection?.charge_reversed === true ? 'Your payment was given back.' : 'You were not charged.';
    return {
      ...common,
      id: `order_ahead.rejected:${uuid}`,
      kind: 'order_ahead.rejected',
      text: (merchant) => ({ title: merchant, body: `Your order was not placed: ${reason} ${money}` }),
    };
  }
  return undefined;
}

function rewardNotification(image: Record<string, unknown>): PendingNotification | undefined {
  const rewardId = text(image.reward_id);
  const userId = whole(image.user_id);
  const merchantId = whole(image.merchant_id);
  if (image.source !== 'earned' || !rewardId || userId === undefined || merchantId === undefined) return undefined;
  const title = text(image.title) ?? 'a reward';
  return {
    id: `reward.earned:${rewardId}`,
    kind: 'reward.earned',
    userId,
    merchantId,
    data: { reward_id: rewardId, merchant_id: merchantId },
    text: (merchant) => ({ title: merchant, body: `You earned ${title}!` }),
  };
}

function giftCardNotification(image: Record<string, unknown>): PendingNotification | undefined {
  const account = text(image.account)?.split(':');
  const contraKind = text(image.contra_account)?.split(':')[0];
  const amount = whole(image.amount);
  const entryId = text(image.entry_id);
  // A load from the till is the user's own purchase at the counter: nothing was received.
  if (
    !GIFT_CARD_RECEIPTS.includes(String(image.kind)) ||
    account?.length !== 3 ||
    account[0] !== 'giftcard' ||
    contraKind === 'till' ||
    !entryId ||
    amount === undefined ||
    amount <= 0
  )
    return undefined;
  const userId = Number(account[1]);
  const merchantId = Number(account[2]);
  if (!Number.isSafeInteger(userId) || !Number.isSafeInteger(merchantId)) return undefined;
  return {
    id: `gift_card.received:${entryId}:${userId}`,
    kind: 'gift_card.received',
    userId,
    merchantId,
    data: { merchant_id: merchantId, value_amount: amount },
    text: (merchant) => ({ title: merchant, body: `You received a ${dollars(amount)} gift card. It is in your wallet at ${merchant}.` }),
  };
}

/** The notifications a batch of stream records owes (pure: no reads). */
export function notificationsOfStream(changes: readonly StreamChange[]): PendingNotification[] {
  return changes.flatMap(({ eventName, image }) => {
    if (eventName !== 'INSERT' && eventName !== 'MODIFY') return [];
    if (image.entity === 'OrderAheadOrder') return [orderAheadNotification(image)].filter((found) => found !== undefined);
    if (eventName !== 'INSERT') return [];
    if (image.entity === 'Reward') return [rewardNotification(image)].filter((found) => found !== undefined);
    if (image.entity === 'LedgerEntry') return [giftCardNotification(image)].filter((found) => found !== undefined);
    return [];
  });
}

export interface PushOutcomes {
  sent: number;
  /** Already sent (a retried batch, a state written again), or the user has no device of those apps. */
  skipped: number;
  dropped: number;
}

/** Claims a notification's one sending; false when it was sent (or is being sent) already. */
function claim(id: string): Promise<boolean> {
  return createItem({
    ...keys.pushSent(id),
    entity: 'PushSent',
    sent_at: new Date().toISOString(),
    ttl: Math.floor(Date.now() / 1000) + SENT_MARKER_DAYS * 24 * 3600,
  });
}

/** Sends what a batch owes; throws (after trying every one) when a push failed and should be retried. */
export async function sendNotifications(notifications: readonly PendingNotification[]): Promise<PushOutcomes> {
  const outcomes: PushOutcomes = { sent: 0, skipped: 0, dropped: 0 };
  if (notifications.length === 0) return outcomes;
  const sender = await pushSender();
  const merchantNames = new Map<number, Promise<string>>();
  const servesMerchant = new Map<string, Promise<boolean>>();
  const nameOf = (notification: PendingNotification) => {
    if (notification.merchantName) return Promise.resolve(notification.merchantName);
    if (!merchantNames.has(notification.merchantId))
      merchantNames.set(
        notification.merchantId,
        getMerchant(notification.merchantId).then((merchant) => merchant?.name ?? 'LevelUp'),
      );
    return merchantNames.get(notification.merchantId)!;
  };
  const serves = (appId: number, merchantId: number) => {
    const key = `${appId}:${merchantId}`;
    if (!servesMerchant.has(key))
      servesMerchant.set(
        key,
        getApp(appId).then((app) => !!app && (app.global || app.merchant_ids.includes(merchantId))),
      );
    return servesMerchant.get(key)!;
  };
  let retry: unknown;
  for (const notification of notifications) {
    const devices: PushDeviceItem[] = [];
    for (const device of await userDevices(notification.userId)) {
      const wanted = notification.appId !== undefined ? device.app_id === notification.appId : await serves(device.app_id, notification.merchantId);
      if (wanted) devices.push(device);
    }
    if (devices.length === 0 || !(await claim(notification.id))) {
      outcomes.skipped++;
      continue;
    }
    const message: PushMessage = {
      notificationId: notification.id,
      kind: notification.kind,
      ...notification.text(await nameOf(notification)),
      data: notification.data,
    };
    let failed = false;
    for (const device of devices) {
      try {
        const outcome = await sender.send({ platform: device.platform, token: device.token, appId: device.app_id, userId: device.user_id }, message);
        if (outcome === 'unreachable') {
          await unregisterDevice(device.app_id, device.token);
          outcomes.dropped++;
        }
      } catch (error) {
        failed = true;
        retry ??= error;
        log('error', 'push_not_sent', { notification_id: notification.id, error: (error as Error).message });
      }
    }
    if (failed) {
      // Sent to none or some: the retried batch sends it again (to all: a second copy beats a lost one).
      await db().send(new DeleteCommand({ TableName: table(), Key: keys.pushSent(notification.id) }));
    } else {
      outcomes.sent++;
    }
  }
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- rethrows the retryable error caught above as it came
  if (retry) throw retry;
  return outcomes;
}
