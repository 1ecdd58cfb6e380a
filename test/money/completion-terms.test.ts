/**
 * A completion may differ from its proposal only where the contract says (docs/money.md, "What a completion
 * may change"; issue 11.3): at another location than proposed it is 422 in the error format and charges
 * nothing; the proposal then completes at its own location.
 */
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { complete, orderWorld, propose } from '../support/money.ts';
import { locationFixture } from '../support/locations.ts';
import { observeGateway } from '../support/gateway.ts';
import { auditLedger, cardAccountKey, getBalance } from '#shared/domain/money/ledger.ts';

const api = useTestApi();
const gateway = observeGateway();

describe('what a completion may change', () => {
  it('answers 422 to a completion at another location of the merchant, charging nothing; the proposal then completes at its own', async () => {
    const world = await orderWorld();
    const merchantId = world.merchant.merchant.merchant_id;
    const elsewhere = await locationFixture(merchantId);
    const proposed = await propose(api, world, { spend_amount: 1200 });
    expect(proposed.status, proposed.text).toBe(200);
    const uuid = proposed.body.proposed_order.uuid as string;
    const observed = gateway.since();

    const moved = await complete(api, world, uuid, { spend_amount: 1200, location_id: elsewhere.location_id });
    expect(moved.status, moved.text).toBe(422);
    expect(moved.body).toEqual([{ error: { object: 'order', property: 'location_id', message: expect.any(String), code: 'differs_from_proposal' } }]);
    expect(observed().charges).toEqual([]);
    expect((await getBalance(cardAccountKey(world.user.user.user_id, merchantId))).balance).toBe(0);

    // Adjusted spend and tax are what a completion may change.
    const completed = await complete(api, world, uuid, { spend_amount: 1300, tax_amount: 100 });
    expect(completed.status, completed.text).toBe(200);
    expect(completed.body.order.spend_amount).toBe(1300);
    expect(observed().charges.map((charge) => charge.amount)).toEqual([1300]);
    expect((await getBalance(cardAccountKey(world.user.user.user_id, merchantId))).balance).toBe(1300);
    const detail = await api.call('GET', `/v15/orders/${completed.body.order.uuid}`, { token: world.user.token });
    expect(detail.body.order.location_id).toBe(world.location.location_id);
    expect((await auditLedger()).mismatches).toEqual([]);
  });
});
