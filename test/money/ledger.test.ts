/**
 * The double-entry ledger through HTTP: an order that spends gift card value and credit and charges the card, and
 * its refund, each write both legs of every transfer in the ONE transaction that changes the balances (the
 * platform legs add no round trip), the biggest of them keeps room for loyalty's largest effects under
 * DynamoDB's 100 items, and the audit balances to zero with each value taken from its kind's source.
 */
import { describe, expect, it, vi } from 'vitest';
import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { useTestApi } from '../support/api.ts';
import { campaignFixture } from '../support/loyalty.ts';
import { loadGiftCard, orderWorld, placeOrder } from '../support/money.ts';
import { MAX_TRANSACT_ITEMS, type TransactItem } from '#shared/db/transactions.ts';
import { MAX_ORDER_EFFECT_ITEMS } from '#shared/domain/loyalty/order-effects.ts';
import { auditLedger, CONTRA_ENTRY } from '#shared/domain/money/ledger.ts';

const api = useTestApi();

// eslint-disable-next-line @typescript-eslint/unbound-method -- the original, called with the client as `this` by the recording wrapper
const send = DynamoDBDocumentClient.prototype.send;

/** Every TransactWriteItems the API sends while `run` runs. */
async function transactionsOf(run: () => Promise<unknown>): Promise<TransactItem[][]> {
  const sent: TransactItem[][] = [];
  vi.spyOn(DynamoDBDocumentClient.prototype, 'send').mockImplementation(function (this: DynamoDBDocumentClient, command: any, ...rest: any[]) {
    if (command instanceof TransactWriteCommand) sent.push(command.input.TransactItems ?? []);
    return (send as any).call(this, command, ...rest);
  });
  try {
    await run();
  } finally {
    vi.restoreAllMocks();
  }
  return sent;
}

const ledgerPuts = (items: TransactItem[]) =>
  items.flatMap((item) => (item.Put && [`LedgerEntry`, CONTRA_ENTRY].includes(item.Put.Item?.entity) ? [item.Put.Item!] : []));

/** Each user-side leg's other leg is in the same transaction, with the amount negated. */
function expectBalancedTransfers(items: TransactItem[], kinds: string[]) {
  const legs = ledgerPuts(items);
  const userLegs = legs.filter((leg) => leg.entity === 'LedgerEntry');
  expect(userLegs.map((leg) => leg.kind).sort()).toEqual([...kinds].sort());
  for (const leg of userLegs) {
    const other = legs.filter((candidate) => candidate !== leg && candidate.transfer_id === leg.transfer_id);
    expect(other).toEqual([
      expect.objectContaining({ entity: CONTRA_ENTRY, account: leg.contra_account, contra_account: leg.account, amount: -leg.amount, kind: leg.kind }),
    ]);
  }
}

describe('double-entry ledger', () => {
  it("an order and its refund write both legs of each transfer in their one transaction, with room for loyalty's largest effects", async () => {
    const world = await orderWorld({ credit: 200 });
    const merchantId = world.merchant.merchant.merchant_id;
    await campaignFixture(merchantId, 'spend');
    const loaded = await loadGiftCard(api, world.merchant.token, merchantId, { payment_token_data: world.user.user.payment_token_data, value_amount: 1000 });
    expect(loaded.status).toBe(200);

    let uuid = '';
    const [settlement, ...others] = (
      await transactionsOf(async () => {
        const completed = await placeOrder(api, world, { spend_amount: 1500, applied_discount_amount: 200 });
        expect(completed.status, completed.text).toBe(200);
        uuid = completed.body.order.uuid;
      })
    ).filter((items) => ledgerPuts(items).length > 0);
    expect(others).toEqual([]);
    expectBalancedTransfers(settlement!, ['gift_card_redeemed', 'credit_applied', 'card_charge']);
    expect(settlement!.length + MAX_ORDER_EFFECT_ITEMS).toBeLessThanOrEqual(MAX_TRANSACT_ITEMS);

    const [refund, ...more] = (
      await transactionsOf(async () => {
        const refunded = await api.call('POST', `/v15/orders/${uuid}/refund`, { token: world.merchant.token, body: { refund: {} } });
        expect(refunded.status, refunded.text).toBe(200);
      })
    ).filter((items) => ledgerPuts(items).length > 0);
    expect(more).toEqual([]);
    expectBalancedTransfers(refund!, ['gift_card_restored', 'credit_restored', 'card_refund']);

    const audit = await auditLedger();
    expect(audit).toMatchObject({ mismatches: [], total: 0 });
    // What the order spent and the refund gave back cancel out on the sinks; the sources keep what they put in.
    expect(audit.platform).toMatchObject({
      [`redeemed:${merchantId}`]: 0,
      [`discounts:${merchantId}`]: 0,
      [`gateway:${merchantId}`]: 0,
      [`till:${merchantId}`]: -1000,
      [`funding:${merchantId}`]: -200,
    });
  });
});
