import { beforeAll, describe, expect, it } from 'vitest';
import { addCredit } from '#shared/domain/ledger.ts';
import { SAMPLE_IDS } from '#shared/domain/order-ahead/sample-menu.ts';
import { useTestApi } from '../support/api.ts';
import { cardFixture } from '../support/cards.ts';
import { orderAheadLocationFixture, orderAheadUserFixture, pollUntilSettled, startOrderAheadTestApi } from '../support/order-ahead.ts';

const api = useTestApi(startOrderAheadTestApi);
let fixture: Awaited<ReturnType<typeof orderAheadLocationFixture>>;

beforeAll(async () => {
  fixture = await orderAheadLocationFixture();
});

async function customerWithCard() {
  const customer = await orderAheadUserFixture(fixture.app.app_id);
  await cardFixture(customer.user.user_id);
  return customer;
}

/** Start -> poll until valid; returns the priced order. */
async function validOrder(token: string, extra: Record<string, unknown> = {}) {
  const started = await api.call('POST', '/v15/order_ahead/orders', {
    token,
    body: {
      order: {
        location_id: fixture.location.location_id,
        conveyance: { fulfillment_type: 'pickup', desired_ready_time: null, delivery_address_id: null },
        items: [{ item: { id: SAMPLE_IDS.burrito, quantity: 1, option_ids: [SAMPLE_IDS.cheese] } }],
        tip_amount: 100,
        ...extra,
      },
    },
  });
  expect(started.status).toBe(200);
  const { last } = await pollUntilSettled(api, started.body.order.order_url, token);
  expect(last.status).toBe(200);
  return last.body.order;
}

async function listedUuids(token: string): Promise<string[]> {
  const response = await api.call('GET', '/v15/apps/orders', { token });
  if (response.status === 204) return [];
  expect(response.status).toBe(200);
  return response.body.map((entry: any) => entry.order.uuid);
}

describe('completing an order-ahead order', () => {
  it('start -> poll -> complete: charged once, listed in the user orders with the same uuid', async () => {
    const customer = await customerWithCard();
    const order = await validOrder(customer.token);
    // Burrito 699 with cheese as the free choice; service fee 50; tax 10% of 749 = 75; tip 100.
    expect(order).toMatchObject({ subtotal: 699, service_fee_amount: 50, tax_amount: 75, tip_amount: 100, total_amount: 924, spend_amount: 749 });

    const completed = await api.call('POST', order.order_completion_url, { token: customer.token });
    expect(completed.status, completed.text).toBe(200);
    expect(completed.body.order).toMatchObject({ uuid: order.uuid, state: 'completed', order_url: `${api.baseUrl}/v15/orders/${order.uuid}`, spend_amount: 824, tip_amount: 100, total_amount: 924 });

    expect(await listedUuids(customer.token)).toContain(order.uuid);
    const detail = await api.call('GET', completed.body.order.order_url, { token: customer.token });
    expect(detail.status).toBe(200);
    expect(detail.body.order).toMatchObject({ uuid: order.uuid, location_id: fixture.location.location_id, tip_amount: 100 });

    const again = await api.call('POST', order.order_completion_url, { token: customer.token });
    expect(again.status).toBe(422);
    expect(again.body[0].error.code).toBe('already_completed');
  });

  it('completes at most once under concurrent requests', async () => {
    const customer = await customerWithCard();
    const order = await validOrder(customer.token);
    const responses = await Promise.all(Array.from({ length: 5 }, () => api.call('POST', order.order_completion_url, { token: customer.token })));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    for (const status of statuses.filter((candidate) => candidate !== 200)) expect([409, 422]).toContain(status);
    expect((await listedUuids(customer.token)).filter((uuid) => uuid === order.uuid)).toHaveLength(1);
  });

  it('replays an Idempotency-Key with the same response', async () => {
    const customer = await customerWithCard();
    const order = await validOrder(customer.token);
    const headers = { 'Idempotency-Key': `complete-${order.uuid}` };
    const first = await api.call('POST', order.order_completion_url, { token: customer.token, headers });
    const second = await api.call('POST', order.order_completion_url, { token: customer.token, headers });
    expect(first.status, first.text).toBe(200);
    expect(second.status, second.text).toBe(200);
    expect(second.text).toBe(first.text);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
  });

  it('applies merchant-funded credit offered as discount_amount', async () => {
    const customer = await customerWithCard();
    await addCredit({ userId: customer.user.user_id, merchantId: fixture.merchant.merchant.merchant_id, amount: 300, entryId: `test:${customer.user.user_id}:credit` });
    const order = await validOrder(customer.token);
    expect(order.discount_amount).toBe(300);
    expect(order.total_amount).toBe(924 - 300);
    const completed = await api.call('POST', order.order_completion_url, { token: customer.token });
    expect(completed.status).toBe(200);
    const detail = await api.call('GET', `/v15/orders/${order.uuid}`, { token: customer.token });
    expect(detail.body.order.credit_applied_amount).toBe(300);
  });

  it("refuses another user's order (404) and an order that is not valid (422)", async () => {
    const owner = await customerWithCard();
    const order = await validOrder(owner.token);
    const stranger = await customerWithCard();
    const foreign = await api.call('POST', order.order_completion_url, { token: stranger.token });
    expect(foreign.status).toBe(404);

    const started = await api.call('POST', '/v15/order_ahead/orders', {
      token: owner.token,
      body: { order: { location_id: fixture.location.location_id, conveyance: { fulfillment_type: 'pickup' }, items: [{ item: { id: 424242, quantity: 1 } }] } },
    });
    const invalid = await pollUntilSettled(api, started.body.order.order_url, owner.token);
    expect(invalid.last.status).toBe(422);
    const refused = await api.call('POST', `${started.body.order.order_url}/complete`, { token: owner.token });
    expect(refused.status).toBe(422);
    expect(refused.body[0].error.code).toBe('not_completable');
  });
});
