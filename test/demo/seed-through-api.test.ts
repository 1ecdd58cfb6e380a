import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { db, table } from '#shared/db/client.ts';
import { keys } from '#shared/db/keys.ts';
import { useTestApi } from '../support/api.ts';
import { walkPages } from '../support/paging.ts';
import type { Demo } from '../../scripts/demo/context.ts';
import { seedDemoIfEmpty, seedProgressFile } from '../../scripts/demo/seed.ts';

/**
 * Issue 38's acceptance: the demo's locations and campaigns are made by the merchant's owner through the management
 * API (not the table), and serve the existing app and POS routes as the operators' did; a second start adds
 * nothing, and a start cut short completes on the next one without making anything twice.
 */
const api = useTestApi();
let directory: string;
let demoFile: string;
let demo: Demo;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'demo-api-'));
  demoFile = join(directory, 'demo.json');
  demo = (await seedDemoIfEmpty({ baseUrl: api.baseUrl, demoFile }))!;
});

afterAll(() => rmSync(directory, { recursive: true, force: true }));

const campaigns = () => demo.campaigns as Record<string, number>;

interface AuditEntry {
  audit_entry: { id: string; actor: { kind: string; staff_id: number | null; role: string | null }; object: { id: string } };
}

/** Every entry of the merchant's audit log with `action`, read by its owner. */
async function auditEntries(merchant: Demo['merchant'] | Demo['other_merchant'], action: string) {
  const walk = await walkPages(api, `/v15/merchants/${merchant.id}/audit_log?action=${action}`, {
    call: { token: merchant.owner.token },
    keyOf: (item: AuditEntry) => item.audit_entry.id,
  });
  return walk.items.map((item) => item.audit_entry);
}

/** Ids of a merchant's management list (every location or campaign it has), read by its owner. */
async function managedIds(merchant: Demo['merchant'], list: 'all_locations' | 'all_campaigns', object: 'location' | 'campaign') {
  const walk = await walkPages(api, `/v15/merchants/${merchant.id}/${list}`, {
    call: { token: merchant.owner.token },
    keyOf: (item: Record<string, { id: number }>) => item[object]!.id,
  });
  return walk.items.map((item: Record<string, { id: number }>) => item[object]!.id).sort((a: number, b: number) => a - b);
}

describe('the demo seed goes through the management API', () => {
  it("each merchant's first owner signs in with the email and password demo.json gives", async () => {
    for (const merchant of [demo.merchant, demo.other_merchant]) {
      const login = await api.call('POST', '/v15/access_tokens', {
        body: { access_token: { api_key: demo.app.api_key, username: merchant.owner.email, password: merchant.owner.password } },
      });
      expect(login.status, login.text).toBe(200);
      expect(login.body.access_token.merchant_id).toBe(merchant.id);
      const me = await api.call('GET', `/v15/merchants/${merchant.id}/staff/me`, { token: login.body.access_token.token });
      expect(me.body.staff).toMatchObject({ id: merchant.owner.staff_id, role: 'owner', status: 'active' });
    }
  });

  it('every seeded location and campaign was created by the owner through the API (their audit entries name the owner as staff)', async () => {
    for (const merchant of [demo.merchant, demo.other_merchant]) {
      const created = await auditEntries(merchant, 'location.created');
      expect(created.map((entry) => Number(entry.object.id)).sort((a, b) => a - b)).toEqual([...merchant.location_ids].sort((a, b) => a - b));
      for (const entry of created) expect(entry.actor).toEqual({ kind: 'staff', staff_id: merchant.owner.staff_id, role: 'owner' });
    }
    const campaignsCreated = await auditEntries(demo.merchant, 'campaign.created');
    const byOwner = campaignsCreated.filter((entry) => entry.actor.kind === 'staff' && entry.actor.staff_id === demo.merchant.owner.staff_id);
    const ids = byOwner.map((entry) => Number(entry.object.id));
    for (const id of [...Object.values(campaigns()), demo.locked_campaign_id as number]) expect(ids).toContain(id);
  });

  it('the seeded locations answer the app and POS routes', async () => {
    const listed = await walkPages(api, `/v15/apps/${demo.app.id}/locations?fulfillment_types=delivery,in_store,pickup`, {
      keyOf: (item: { location: { id: number } }) => item.location.id,
      carries: ['fulfillment_types'],
    });
    const listedIds = listed.items.map((item: { location: { id: number } }) => item.location.id);
    for (const id of [...demo.merchant.location_ids, ...demo.other_merchant.location_ids]) expect(listedIds).toContain(id);

    const [first] = demo.merchant.location_ids;
    const shown = await api.call('GET', `/v15/locations/${first}`);
    expect(shown.status, shown.text).toBe(200);
    expect(shown.body.location).toMatchObject({ id: first, merchant_id: demo.merchant.id, name: 'Downtown Crossing' });

    const managed = await api.call('GET', '/v15/managed_locations', { token: demo.merchant.token });
    expect(managed.status, managed.text).toBe(200);
    expect(managed.body.map((item: { location: { id: number } }) => item.location.id)).toEqual(expect.arrayContaining(demo.merchant.location_ids.slice(0, 5)));
  });

  it('a POS order at a seeded location earns progress on the spend campaign the owner made, as the app shows it', async () => {
    const customer = demo.users[1]!;
    // The walkthrough's own step: the second user adds the sandbox card.
    const card = await api.call('POST', '/v15/credit_cards', {
      token: customer.token,
      body: { credit_card: { gateway_payment_nonce: demo.card_nonces.valid } },
    });
    expect(card.status, card.text).toBe(200);
    const spendCampaign = campaigns().spend!;
    const progressOf = async () => {
      const shown = await api.call('GET', `/v15/campaigns/${spendCampaign}/spend_based_loyalty_v1`, { token: customer.token });
      expect(shown.status, shown.text).toBe(200);
      return shown.body.campaign.progress_amount as number;
    };
    expect(await progressOf()).toBe(0);
    const check = { location_id: demo.merchant.location_ids[0], payment_token_data: customer.payment_token_data, spend_amount: 2000, tax_amount: 0 };
    const proposed = await api.call('POST', '/v15/proposed_orders', { token: demo.merchant.token, body: { proposed_order: check } });
    expect(proposed.status, proposed.text).toBe(200);
    const completed = await api.call('POST', '/v15/completed_orders', {
      token: demo.merchant.token,
      body: { completed_order: { ...check, proposed_order_uuid: proposed.body.proposed_order.uuid, applied_discount_amount: 0 } },
    });
    expect(completed.status, completed.text).toBe(200);
    expect(await progressOf()).toBe(2000);
  });
});

describe('the demo seed runs once and resumes', () => {
  it('a second start adds nothing', async () => {
    const locationsBefore = await managedIds(demo.merchant, 'all_locations', 'location');
    expect(await seedDemoIfEmpty({ baseUrl: api.baseUrl, demoFile })).toBeUndefined();
    expect(await managedIds(demo.merchant, 'all_locations', 'location')).toEqual(locationsBefore);
  });

  it('a start cut short after every API call went through, but before any was recorded, completes with the same locations and campaigns', async () => {
    const [locationsBefore, campaignsBefore] = [
      await managedIds(demo.merchant, 'all_locations', 'location'),
      await managedIds(demo.merchant, 'all_campaigns', 'campaign'),
    ];
    // The worst cut: the app recorded (its secret is shown once), the foundation and the loyalty area (merchants,
    // owners, locations and campaigns through the API, users) made but not recorded, no marker, no demo.json.
    // The areas whose data is made by domain calls are marked done: each area is recorded as soon as it ends.
    await db().send(new DeleteCommand({ TableName: table(), Key: keys.demoSeed() }));
    rmSync(demoFile);
    writeFileSync(seedProgressFile(demoFile), JSON.stringify({ app: demo.app, areas_done: ['money', 'order-ahead', 'contributions'] }));

    const resumed = (await seedDemoIfEmpty({ baseUrl: api.baseUrl, demoFile }))!;
    expect(resumed).toBeDefined();
    expect(existsSync(seedProgressFile(demoFile))).toBe(false);
    expect(JSON.parse(readFileSync(demoFile, 'utf8')).merchant.location_ids).toEqual(resumed.merchant.location_ids);
    expect(resumed.app).toEqual(demo.app);
    expect({ merchant: resumed.merchant.id, other: resumed.other_merchant.id, users: resumed.users.map((user) => user.id) }).toEqual({
      merchant: demo.merchant.id,
      other: demo.other_merchant.id,
      users: demo.users.map((user) => user.id),
    });
    // The foundation's locations replayed under their keys (the order-ahead kitchen is its area's, not re-run here).
    expect(resumed.merchant.location_ids).toEqual(demo.merchant.location_ids.slice(0, resumed.merchant.location_ids.length));
    expect(resumed.other_merchant.location_ids).toEqual(demo.other_merchant.location_ids);
    expect(resumed.campaigns).toEqual(demo.campaigns);
    expect(resumed.legacy).toEqual(demo.legacy);
    expect(await managedIds(demo.merchant, 'all_locations', 'location')).toEqual(locationsBefore);
    expect(await managedIds(demo.merchant, 'all_campaigns', 'campaign')).toEqual(campaignsBefore);
    // The one sandbox card of the first user was not added twice.
    expect((await api.call('GET', '/v15/credit_cards', { token: resumed.users[0]!.token })).body).toHaveLength(1);
  });
});
