import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { runAdmin } from '../support/admin.ts';
import { orderWorld, placeOrder, loadWorldGiftCard } from '../support/money.ts';
import { db, table } from '#shared/db/client.ts';
import { keys } from '#shared/db/keys.ts';
import { giftCardAccountKey } from '#shared/domain/money/ledger.ts';

const api = useTestApi();

const audit = () => runAdmin(['audit'], api);

describe('npm run admin -- audit', () => {
  it('finds every balance equal to its ledger, then reports a tampered balance and exits 1', async () => {
    const world = await orderWorld({ credit: 200 });
    await loadWorldGiftCard(api, world, 1000);
    const completed = await placeOrder(api, world, { spend_amount: 1500, applied_discount_amount: 200, tip_amount: 100 });
    await api.call('POST', `/v14/orders/${completed.body.order.uuid}/refund`, { token: world.merchant.token });

    const clean = await audit();
    expect(clean.code, clean.stderr).toBe(0);
    const report = JSON.parse(clean.stdout);
    expect(report).toMatchObject({ mismatches: [] });
    expect(report.entries).toBeGreaterThanOrEqual(8);

    const account = giftCardAccountKey(world.user.user.user_id, world.merchant.merchant.merchant_id);
    await db().send(
      new UpdateCommand({ TableName: table(), Key: keys.balance(account), UpdateExpression: 'ADD balance :extra', ExpressionAttributeValues: { ':extra': 1 } }),
    );
    const tampered = await audit();
    expect(tampered.code).toBe(1);
    expect(tampered.stdout).toContain(account);
    expect(tampered.stderr).toContain('do not match the ledger');
  });
});
