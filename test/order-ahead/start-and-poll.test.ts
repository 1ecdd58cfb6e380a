import { beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_IDS } from '#shared/domain/order-ahead/sample-menu.ts';
import { useTestApi } from '../support/api.ts';
import { userFixture } from '../support/fixtures.ts';
import {
  FAR_AWAY,
  iosCart,
  orderAheadLocationFixture,
  orderAheadUserFixture,
  pollLikeIos,
  pollUntilSettled,
  startOrderAheadTestApi,
} from '../support/order-ahead.ts';
import { clientPayload, expectShapeOf } from '../support/payloads.ts';
import { stepHandler } from '../../functions/order-ahead-validate.ts';

/** Holds the Validate step until released, so a test can see the order while it is validating. */
let gate: Promise<void> = Promise.resolve();

const api = useTestApi(() =>
  startOrderAheadTestApi({
    taskHandlers: {
      Validate: async (input) => {
        await gate;
        return stepHandler(input);
      },
    },
  }),
);
let fixture: Awaited<ReturnType<typeof orderAheadLocationFixture>>;
let customer: Awaited<ReturnType<typeof orderAheadUserFixture>>;

beforeAll(async () => {
  fixture = await orderAheadLocationFixture();
  customer = await orderAheadUserFixture(fixture.app.app_id);
});

function pickupCart(overrides: Record<string, unknown> = {}) {
  return iosCart(fixture.location.location_id, [{ id: SAMPLE_IDS.tots, quantity: 2, special_instructions: null, option_ids: [SAMPLE_IDS.large] }], overrides);
}

async function start(body: unknown, token = customer.token) {
  return api.call('POST', '/v15/order_ahead/orders', { token, body });
}

describe('menu', () => {
  it('serves the location menu without a token, with 64-bit option ids exact', async () => {
    const response = await api.call('GET', `/v15/order_ahead/locations/${fixture.location.location_id}/menu`);
    expect(response.status).toBe(200);
    const tots = response.body.menu.categories[0].category.items[0].item;
    expect(tots).toMatchObject({ id: SAMPLE_IDS.tots, name: 'Tater Tots', price_amount: 299, price_with_defaults_amount: 398 });
    const options = tots.option_groups[0].option_group.options.map((entry: any) => entry.option.id);
    expect(options).toEqual([SAMPLE_IDS.small, SAMPLE_IDS.large]);
    expect(SAMPLE_IDS.large).toBeGreaterThan(2 ** 32);
    // The JSON text carries the integer itself, not a rounded or quoted form.
    expect(response.text).toContain(`"id":${SAMPLE_IDS.guacamole}`);
  });

  it('answers 404 for a location without a menu', async () => {
    expect((await api.call('GET', '/v15/order_ahead/locations/999999/menu')).status).toBe(404);
  });
});

describe('start', () => {
  it('rejects malformed carts at once with every problem', async () => {
    const response = await start({
      order: {
        conveyance: { fulfillment_type: 'drone' },
        items: [{ item: { id: SAMPLE_IDS.tots, quantity: 0 } }],
      },
    });
    expect(response.status).toBe(422);
    const errors = response.body.map((entry: any) => entry.error);
    expect(errors).toContainEqual(expect.objectContaining({ object: 'order', property: 'location_id', code: 'missing' }));
    expect(errors).toContainEqual(expect.objectContaining({ object: 'order', property: 'conveyance.fulfillment_type', code: 'invalid' }));
    expect(errors).toContainEqual(expect.objectContaining({ object: 'order', property: 'items', code: 'cart_invalid' }));
  });

  it('rejects delivery without an address and a cart without items', async () => {
    const response = await start(pickupCart({ conveyance: { fulfillment_type: 'delivery', delivery_address_id: null }, items: [] }));
    expect(response.status).toBe(422);
    const properties = response.body.map((entry: any) => entry.error.property);
    expect(properties).toEqual(expect.arrayContaining(['conveyance.delivery_address_id', 'items']));
  });

  it('needs create_orders and read_user_basic_info', async () => {
    const limited = await userFixture(fixture.app.app_id, { permissions: ['read_user_basic_info'] });
    expect((await start(pickupCart(), limited.token)).status).toBe(401);
  });

  it('answers 202 while validating, then 200 with every poll field', async () => {
    let release!: () => void;
    gate = new Promise((resolve) => (release = resolve));
    const started = await start(pickupCart({ special_instructions: 'Extra napkins, please.', tip_amount: 150, tip_percent: 50 }));
    expect(started.status).toBe(200);
    const { order_url: orderUrl, state, uuid } = started.body.order;
    expect(state).toBe('externally_validating');
    expect(orderUrl).toBe(`${api.baseUrl}/v15/order_ahead/orders/${uuid}`);

    const pending = await api.call('GET', orderUrl, { token: customer.token });
    expect(pending.status).toBe(202);
    expect(pending.text).toBe('');
    release();

    const { last } = await pollUntilSettled(api, orderUrl, customer.token);
    expect(last.status).toBe(200);
    const order = last.body.order;
    // Tots 299 + Large 199 = 498, x2 = 996; service fee 50; tax 10% of 1046 = 105 (rounded half up); tip_amount wins.
    expect(order).toMatchObject({
      uuid,
      state: 'externally_valid',
      location_id: fixture.location.location_id,
      location_title: '123 Main St.',
      location_subtitle: 'Boston, MA 02114',
      merchant_name: fixture.merchant.merchant.name,
      subtotal: 996,
      delivery_fee_amount: 0,
      service_fee_amount: 50,
      provider_service_fee_amount: 0,
      tax_amount: 105,
      tip_amount: 150,
      discount_amount: 0,
      spend_amount: 1046,
      total_amount: 1046 + 105 + 150,
      allows_special_instructions: true,
      special_instructions_character_limit: 80,
      displayed_upsell_ids: [],
      order_completion_url: `${orderUrl}/complete`,
    });
    for (const field of [
      'soonest_available_at',
      'delivery_fee_amount',
      'discount_amount',
      'order_completion_url',
      'provider_service_fee_amount',
      'service_fee_amount',
      'spend_amount',
      'state',
      'subtotal',
      'tax_amount',
      'tip_amount',
      'total_amount',
    ]) {
      expect(order[field], field).not.toBeNull();
    }
    expect(order.available_at[0]).toBe(order.soonest_available_at);
    expect(order.soonest_available_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/);
    expect(order.items).toEqual([
      {
        item: {
          id: SAMPLE_IDS.tots,
          name: 'Tater Tots',
          option_ids: [SAMPLE_IDS.large],
          price_amount: 299,
          quantity: 2,
          selected_options: [{ option: { id: SAMPLE_IDS.large, free_quantity: 0, name: 'Large', price_amount: 199, quantity: 1 } }],
          selected_options_description: 'Large',
          special_instructions: null,
          upsell_id: null,
        },
      },
    ]);
    expect(order.latitude).toBe(fixture.location.latitude);
  });

  it('a 0.5 s poller (the iOS SDK) sees only 202 with Retry-After while validating, then 200, never 429; the final answer repeats', async () => {
    let release!: () => void;
    gate = new Promise((resolve) => (release = resolve));
    const started = await start(pickupCart());
    const orderUrl = started.body.order.order_url;
    // Two polls at once and a quick repeat: early polls are answered, not refused.
    const early = await Promise.all([api.call('GET', orderUrl, { token: customer.token }), api.call('GET', orderUrl, { token: customer.token })]);
    setTimeout(release, 1_600);
    const { answers, last } = await pollLikeIos(api, orderUrl, customer.token);
    for (const answer of [...early, ...answers.slice(0, -1)]) {
      expect(answer.status).toBe(202);
      expect(answer.text).toBe('');
      expect(answer.headers.get('retry-after')).toBe('1');
    }
    expect(answers.length).toBeGreaterThan(2);
    expect(last.status, last.text).toBe(200);
    // Once valid, every poll (however soon) repeats the final answer.
    const repeats = await Promise.all([api.call('GET', orderUrl, { token: customer.token }), api.call('GET', orderUrl, { token: customer.token })]);
    for (const repeat of repeats) expect(repeat.text).toBe(last.text);
  });

  it('an invalid order answers 422 to every poll, however soon', async () => {
    const started = await start(pickupCart({ items: [{ item: { id: 999_999, quantity: 1 } }] }));
    const { last } = await pollLikeIos(api, started.body.order.order_url, customer.token);
    expect(last.status).toBe(422);
    const repeats = await Promise.all([
      api.call('GET', started.body.order.order_url, { token: customer.token }),
      api.call('GET', started.body.order.order_url, { token: customer.token }),
    ]);
    for (const repeat of repeats) expect(repeat.text).toBe(last.text);
  });

  it("accepts the iOS SDK's start body verbatim, state names included, and answers with the contract's", async () => {
    const ios = clientPayload('ios_v15_order_ahead_orders__create.json');
    const body = structuredClone(ios.request_body);
    body.order.location_id = fixture.location.location_id;
    body.order.items[0].item.id = SAMPLE_IDS.tots;
    body.order.items[0].item.option_ids = [SAMPLE_IDS.small];
    for (const state of ['validating', 'valid', 'externally_valid']) {
      const started = await start({ order: { ...body.order, state } });
      expect(started.status, started.text).toBe(200);
      expect(started.body.order.state).toBe('externally_validating');
      expectShapeOf(started.body, ios.response_body);
    }
    const unknown = await start({ order: { ...body.order, state: 'teleported' } });
    expect(unknown.status).toBe(422);
    expect(unknown.body[0].error).toMatchObject({ object: 'order', property: 'state', code: 'invalid' });
    const { last } = await pollLikeIos(api, (await start(body)).body.order.order_url, customer.token);
    expect(last.status, last.text).toBe(200);
    expect(last.body.order.state).toBe('externally_valid');
    expectShapeOf(last.body, clientPayload('ios_v15_order_ahead_orders_uuid__show.json').responses[1].response_body);
  });

  it("hides another user's order (404)", async () => {
    const started = await start(pickupCart());
    const stranger = await userFixture(fixture.app.app_id);
    const response = await api.call('GET', started.body.order.order_url, { token: stranger.token });
    expect(response.status).toBe(404);
    expect(response.text).toBe('');
  });

  it('prices options with free choices and a percent tip, and offers the upsell', async () => {
    const started = await start(
      pickupCart({
        items: [{ item: { id: SAMPLE_IDS.burrito, quantity: 1, option_ids: [SAMPLE_IDS.cheese, SAMPLE_IDS.guacamole] } }],
        tip_amount: null,
        tip_percent: 20,
      }),
    );
    const { last } = await pollUntilSettled(api, started.body.order.order_url, customer.token);
    expect(last.status).toBe(200);
    const order = last.body.order;
    // Burrito 699; guacamole (the most expensive) is the free choice, cheese costs 100.
    expect(order.subtotal).toBe(799);
    expect(order.tip_amount).toBe(160);
    expect(order.items[0].item.selected_options).toEqual([
      { option: { id: SAMPLE_IDS.cheese, free_quantity: 0, name: 'Cheese', price_amount: 100, quantity: 1 } },
      { option: { id: SAMPLE_IDS.guacamole, free_quantity: 1, name: 'Guacamole', price_amount: 250, quantity: 1 } },
    ]);
    expect(order.upsell).toMatchObject({ id: SAMPLE_IDS.upsell, show_prices: true });
    expect(order.upsell.items.map((entry: any) => entry.item.id)).toEqual([SAMPLE_IDS.water, SAMPLE_IDS.cookie]);
    expect(order.upsell.items[0].item.price_amount).toBe('149');
  });

  it('carries upsell ids round trip: upsell_ids become displayed_upsell_ids, items keep upsell_id', async () => {
    const started = await start(
      pickupCart({
        items: [
          { item: { id: SAMPLE_IDS.burrito, quantity: 1, option_ids: [] } },
          { item: { id: SAMPLE_IDS.water, quantity: 1, upsell_id: SAMPLE_IDS.upsell } },
        ],
        upsell_ids: [SAMPLE_IDS.upsell],
      }),
    );
    const { last } = await pollUntilSettled(api, started.body.order.order_url, customer.token);
    expect(last.status).toBe(200);
    expect(last.body.order.displayed_upsell_ids).toEqual([SAMPLE_IDS.upsell]);
    expect(last.body.order.items[1].item.upsell_id).toBe(SAMPLE_IDS.upsell);
    // Already shown: not offered again.
    expect(last.body.order.upsell).toBeNull();
  });

  it('ends 422 on poll for a cart that cannot be ordered', async () => {
    const started = await start(
      pickupCart({
        items: [{ item: { id: 999_999, quantity: 1 } }, { item: { id: SAMPLE_IDS.tots, quantity: 1, option_ids: [] } }],
        special_instructions: 'x'.repeat(81),
      }),
    );
    expect(started.status).toBe(200);
    const { last } = await pollUntilSettled(api, started.body.order.order_url, customer.token);
    expect(last.status).toBe(422);
    const errors = last.body.map((entry: any) => entry.error);
    expect(errors).toContainEqual(expect.objectContaining({ object: 'order', property: 'items', code: 'cart_invalid' }));
    expect(errors.filter((error: any) => error.code === 'cart_invalid')).toHaveLength(2); // unknown item; size is required
    expect(errors).toContainEqual(expect.objectContaining({ property: 'special_instructions', code: 'too_long' }));
  });

  it('delivers inside the delivery area only, and checks the ready time', async () => {
    const inside = await start(pickupCart({ conveyance: { fulfillment_type: 'delivery', delivery_address_id: customer.address.address_id } }));
    const valid = await pollUntilSettled(api, inside.body.order.order_url, customer.token);
    expect(valid.last.status).toBe(200);
    expect(valid.last.body.order.delivery_fee_amount).toBe(299);

    const far = await orderAheadUserFixture(fixture.app.app_id, FAR_AWAY);
    const outside = await start(pickupCart({ conveyance: { fulfillment_type: 'delivery', delivery_address_id: far.address.address_id } }), far.token);
    const invalid = await pollUntilSettled(api, outside.body.order.order_url, far.token);
    expect(invalid.last.status).toBe(422);
    expect(invalid.last.body[0].error).toMatchObject({ property: 'conveyance.delivery_address_id', code: 'outside_delivery_area' });

    // Someone else's address is not found.
    const borrowed = await start(pickupCart({ conveyance: { fulfillment_type: 'delivery', delivery_address_id: far.address.address_id } }));
    const notMine = await pollUntilSettled(api, borrowed.body.order.order_url, customer.token);
    expect(notMine.last.body[0].error).toMatchObject({ property: 'conveyance.delivery_address_id', code: 'not_found' });

    const slot = valid.last.body.order.available_at.at(-1);
    const scheduled = await start(pickupCart({ conveyance: { fulfillment_type: 'pickup', desired_ready_time: slot } }));
    expect((await pollUntilSettled(api, scheduled.body.order.order_url, customer.token)).last.status).toBe(200);
    const unavailable = await start(pickupCart({ conveyance: { fulfillment_type: 'pickup', desired_ready_time: '2001-01-01T12:00:00Z' } }));
    const late = await pollUntilSettled(api, unavailable.body.order.order_url, customer.token);
    expect(late.last.body[0].error).toMatchObject({ property: 'conveyance.desired_ready_time', code: 'unavailable' });
  });
});

describe('upsells', () => {
  it('suggests items for a triggering cart, and nothing otherwise', async () => {
    const triggered = await api.call('POST', '/v15/upsells', {
      token: customer.token,
      body: pickupCart({ items: [{ item: { id: SAMPLE_IDS.burrito, quantity: 1 } }] }),
    });
    expect(triggered.status).toBe(200);
    expect(triggered.body).toEqual({
      upsell: {
        id: SAMPLE_IDS.upsell,
        prompt: 'Add a drink or something sweet?',
        show_prices: true,
        items: [{ item: { id: SAMPLE_IDS.water } }, { item: { id: SAMPLE_IDS.cookie } }],
      },
    });

    const plain = await api.call('POST', '/v15/upsells', { token: customer.token, body: pickupCart() });
    expect(plain.status).toBe(204);
    expect(plain.text).toBe('');

    const shown = await api.call('POST', '/v15/upsells', {
      token: customer.token,
      body: pickupCart({ items: [{ item: { id: SAMPLE_IDS.burrito, quantity: 1 } }], upsell_ids: [SAMPLE_IDS.upsell] }),
    });
    expect(shown.status).toBe(204);
  });

  it('needs a user token', async () => {
    expect((await api.call('POST', '/v15/upsells', { body: pickupCart() })).status).toBe(401);
  });
});
