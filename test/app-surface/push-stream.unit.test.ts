/**
 * Which stream records owe a push (shared/domain/notifications/notifications.ts notificationsOfStream), on the items as the
 * writers store them: the end-to-end cases are test/app-surface/push-notifications.test.ts's; here the ones that
 * need another area's writes (a held gift claimed at sign-up) or must stay silent.
 */
import { describe, expect, it } from 'vitest';
import { notificationsOfStream } from '#shared/domain/notifications/notifications.ts';
import { ledgerLeg } from '../support/ledger-items.ts';

describe('notificationsOfStream', () => {
  it("tells the recipient of a held gift claimed at sign-up (the gift card leg), not the held account's leg", () => {
    const notifications = notificationsOfStream([
      { eventName: 'INSERT', image: ledgerLeg('giftcard:41:7', 'gift_claimed', 'held:friend@example.com:7', 2500, 'gcorder:u-1:claim') },
      { eventName: 'INSERT', image: ledgerLeg('held:friend@example.com:7', 'gift_claimed', 'giftcard:41:7', -2500, 'gcorder:u-1:claim') },
    ]);
    expect(notifications.map(({ id, kind, userId, merchantId, data }) => ({ id, kind, userId, merchantId, data }))).toEqual([
      { id: 'gift_card.received:gcorder:u-1:claim:41', kind: 'gift_card.received', userId: 41, merchantId: 7, data: { merchant_id: 7, value_amount: 2500 } },
    ]);
    expect(notifications[0]!.text('Coffee Co').body).toBe('You received a $25.00 gift card. It is in your wallet at Coffee Co.');
  });

  it('stays silent for a till load, a removal, a claimed (not earned) reward, an order-ahead order still in progress, and updates of other items', () => {
    expect(
      notificationsOfStream([
        { eventName: 'INSERT', image: ledgerLeg('giftcard:41:7', 'gift_card_load', 'till:7', 1000, 'gcadd:a-1') },
        { eventName: 'INSERT', image: ledgerLeg('giftcard:41:7', 'gift_card_removed', 'till:7', -500, 'gcrem:r-1') },
        { eventName: 'INSERT', image: { entity: 'Reward', source: 'claim', reward_id: 'claim-1', user_id: 41, merchant_id: 7, title: 'Free coffee' } },
        {
          eventName: 'MODIFY',
          image: { entity: 'OrderAheadOrder', uuid: 'o-1', user_id: 41, app_id: 3, state: 'submitted', priced: { merchant_id: 7, merchant_name: 'Coffee Co' } },
        },
        { eventName: 'MODIFY', image: { entity: 'Reward', source: 'earned', reward_id: 'earned-1', user_id: 41, merchant_id: 7, title: 'Free coffee' } },
        { eventName: 'REMOVE', image: { entity: 'OrderAheadOrder', uuid: 'o-2', user_id: 41, app_id: 3, state: 'completed', priced: { merchant_id: 7 } } },
      ]),
    ).toEqual([]);
  });
});
