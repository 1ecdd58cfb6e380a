import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { seedDemoIfEmpty } from '../../scripts/demo/seed.ts';
import { auditLedger, getBalance, giftCardAccountKey } from '#shared/domain/money/ledger.ts';
import { getMerchant } from '#shared/domain/merchants/merchants.ts';

const api = useTestApi();

describe('money demo data', () => {
  it('gives the demo merchant a manager confirmation code and a user gift card value, credit and an order', async () => {
    const demoFile = join(mkdtempSync(join(tmpdir(), 'demo-')), 'demo.json');
    const demo = await seedDemoIfEmpty({ baseUrl: api.baseUrl, demoFile });
    const money = demo!.money as Record<string, any>;
    expect(JSON.parse(readFileSync(demoFile, 'utf8')).money).toEqual(money);
    expect((await getMerchant(demo!.merchant.id))?.manager_confirmation).toBe(demo!.merchant.manager_confirmation);
    expect((await getBalance(giftCardAccountKey(money.gift_card_holder_user_id, demo!.merchant.id))).balance).toBe(money.value_at_merchant_amount);
    const holder = demo!.users.find((user) => user.id === money.gift_card_holder_user_id)!;
    const orders = await api.call('GET', '/v15/apps/orders', { token: holder.token });
    expect(orders.body.map((entry: any) => entry.order.uuid)).toContain(money.completed_order_uuid);
    const refund = await api.call('POST', `/v14/orders/${money.completed_order_uuid}/refund`, {
      token: demo!.merchant.token,
      body: { refund: { manager_confirmation: demo!.merchant.manager_confirmation } },
    });
    expect(refund.status).toBe(200);
    expect((await auditLedger()).mismatches).toEqual([]);
  });
});
