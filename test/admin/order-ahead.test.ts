import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { sampleMenu, SAMPLE_IDS } from '#shared/domain/order-ahead/sample-menu.ts';
import { useTestApi } from '../support/api.ts';
import { runAdmin } from '../support/admin.ts';
import { appFixture, merchantFixture, userFixture } from '../support/fixtures.ts';
import { locationFixture } from '../support/locations.ts';

const api = useTestApi();
let directory: string;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'order-ahead-admin-'));
});

const admin = (args: string[]) => runAdmin(args, api);

describe('npm run admin -- create-menu / create-upsell', () => {
  it('publishes a menu from a JSON file, readable through the menu endpoint, and adds an upsell', async () => {
    const { app } = await appFixture();
    const { merchant } = await merchantFixture(app.app_id);
    const location = await locationFixture(merchant.merchant_id, { fulfillment_types: ['pickup'] });
    const file = join(directory, 'menu.json');
    writeFileSync(file, JSON.stringify({ ...sampleMenu(), upsells: [] }));

    const created = await admin(['create-menu', '--location-id', String(location.location_id), '--file', file]);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toContain(`"id": ${SAMPLE_IDS.large}`);

    const menu = await api.call('GET', `/v15/order_ahead/locations/${location.location_id}/menu`);
    expect(menu.status).toBe(200);
    expect(menu.body.menu.categories.map((entry: any) => entry.category.name)).toEqual(['Appetizers', 'Lunch', 'Drinks and sweets', 'Breakfast']);
    expect(menu.text).toContain(`"id":${SAMPLE_IDS.large}`);

    const upsell = await admin([
      'create-upsell',
      '--location-id',
      String(location.location_id),
      '--prompt',
      'Thirsty?',
      '--item-ids',
      String(SAMPLE_IDS.water),
      '--segment',
      'new_customers',
    ]);
    expect(upsell.code, upsell.stderr).toBe(0);
    const { upsell: created_upsell } = JSON.parse(upsell.stdout);
    const customer = await userFixture(app.app_id);
    const suggestion = await api.call('POST', '/v15/upsells', {
      token: customer.token,
      body: {
        order: { location_id: location.location_id, conveyance: { fulfillment_type: 'pickup' }, items: [{ item: { id: SAMPLE_IDS.tots, quantity: 1 } }] },
      },
    });
    expect(suggestion.status).toBe(200);
    expect(suggestion.body).toEqual({ upsell: { id: created_upsell.id, prompt: 'Thirsty?', show_prices: true, items: [{ item: { id: SAMPLE_IDS.water } }] } });
  });

  it('refuses an invalid menu with every problem and exit code 1', async () => {
    const file = join(directory, 'bad-menu.json');
    writeFileSync(file, JSON.stringify({ categories: [{ id: 1, name: 'Empty', items: [{ id: 1, name: 'No price' }] }] }));
    const result = await admin(['create-menu', '--location-id', '1', '--file', file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('price_amount');
  });
});
