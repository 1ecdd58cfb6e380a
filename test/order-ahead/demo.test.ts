import { describe, expect, it } from 'vitest';
import type { DemoContext } from '../../scripts/demo/context.ts';
import { seedOrderAhead } from '../../scripts/demo/order-ahead.ts';
import { useTestApi } from '../support/api.ts';
import { userFixture } from '../support/fixtures.ts';
import { demoMerchant } from '../support/demo.ts';
import { pollUntilSettled, startOrderAheadTestApi } from '../support/order-ahead.ts';

const api = useTestApi(startOrderAheadTestApi);

describe('order-ahead demo data', () => {
  it('seeds a pickup and delivery menu and a delivery address inside its area that validates', async () => {
    const { app, merchant, owner } = await demoMerchant(api.baseUrl);
    const customer = await userFixture(app.app_id);
    const context = {
      base_url: api.baseUrl,
      merchant: { id: merchant.merchant_id, location_ids: [] as number[] },
      users: [{ id: customer.user.user_id, token: customer.token }],
      owner,
      progress: () => undefined,
    } as unknown as DemoContext;

    const seeded = (await seedOrderAhead(context)) as any;
    expect(seeded.menu.item_with_option.option_id).toBeGreaterThan(2 ** 32);
    expect(seeded.menu.item_ids).toContain(seeded.menu.upsell_trigger_item_id);
    expect(context.merchant.location_ids).toEqual([seeded.menu.location_id]);
    const menu = await api.call('GET', seeded.menu.menu_url);
    expect(menu.status).toBe(200);
    expect(menu.body.menu.id).toBe(seeded.menu.id);
    expect(seeded.menu.menu_url).toBe(`${api.baseUrl}/v15/order_ahead/menus/${seeded.menu.id}`);
    expect((await api.call('GET', seeded.menu.location_menu_url)).text).toBe(menu.text);

    const started = await api.call('POST', '/v15/order_ahead/orders', {
      token: customer.token,
      body: {
        order: {
          location_id: seeded.menu.location_id,
          conveyance: { fulfillment_type: 'delivery', delivery_address_id: seeded.delivery_address_id },
          items: [{ item: { id: seeded.menu.item_with_option.id, quantity: 1, option_ids: [seeded.menu.item_with_option.option_id] } }],
        },
      },
    });
    const { last } = await pollUntilSettled(api, started.body.order.order_url, customer.token);
    expect(last.status, last.text).toBe(200);
    expect(last.body.order.items[0].item.option_ids).toEqual([seeded.menu.item_with_option.option_id]);
  });
});
