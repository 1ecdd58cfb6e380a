import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { walkPages } from '../support/paging.ts';
import type { Demo } from '../../scripts/demo/context.ts';
import { printWalkthrough, seedDemoIfEmpty } from '../../scripts/demo/seed.ts';

const api = useTestApi();
let directory: string;
let demoFile: string;
let demo: Demo | undefined;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'demo-seed-'));
  demoFile = join(directory, 'demo.json');
  demo = await seedDemoIfEmpty({ baseUrl: api.baseUrl, demoFile });
});

afterAll(async () => {
  rmSync(directory, { recursive: true, force: true });
});

describe('demo seed', () => {
  it('writes demo.json with the documented keys', () => {
    expect(demo).toBeDefined();
    const written = JSON.parse(readFileSync(demoFile, 'utf8'));
    expect(written).toEqual(demo);
    expect(written).toMatchObject({
      base_url: api.baseUrl,
      app: { id: 1, api_key: expect.any(String), client_secret: expect.any(String) },
      merchant: { id: expect.any(Number), token: expect.any(String), username: expect.any(String), password: expect.any(String) },
      other_merchant: { id: expect.any(Number), token: expect.any(String) },
      card_nonces: {
        valid: 'fake-valid-nonce',
        invalid_expiration: 'fake-invalid-expiration-nonce',
        declines: 'fake-declines-nonce',
        limited_funds: 'fake-limited-funds-nonce',
        limited_funds_amount: 1500,
      },
    });
    expect(written.merchant.location_ids.length + written.other_merchant.location_ids.length).toBeGreaterThanOrEqual(25);
    expect(written.users.map((user: { has_card: boolean }) => user.has_card)).toEqual([true, false]);
  });

  it("demo.json's app secret and merchant login work as the SDKs use them (app token; v14 merchant login)", async () => {
    const written = JSON.parse(readFileSync(demoFile, 'utf8'));
    const appGrant = await api.call('POST', '/v15/access_tokens', { body: { api_key: written.app.api_key, client_secret: written.app.client_secret } });
    expect(appGrant.status, appGrant.text).toBe(200);
    expect(appGrant.body.access_token).toMatchObject({ app_id: written.app.id, user_id: null, merchant_id: null });
    const merchantLogin = await api.call('POST', '/v14/access_tokens', {
      body: { access_token: { api_key: written.app.api_key, username: written.merchant.username, password: written.merchant.password } },
    });
    expect(merchantLogin.status, merchantLogin.text).toBe(200);
    expect(merchantLogin.body.access_token.merchant_id).toBe(written.merchant.id);
    expect(JSON.parse(readFileSync(join(directory, 'settings.json'), 'utf8'))).toMatchObject({ dynamodb_endpoint: api.endpoint, table_name: api.tableName });
  });

  it('seeds only once', async () => {
    expect(await seedDemoIfEmpty({ baseUrl: api.baseUrl, demoFile })).toBeUndefined();
  });

  it('refuses to go on when the table is seeded but demo.json is gone', async () => {
    const missing = join(directory, 'elsewhere', 'demo.json');
    await expect(seedDemoIfEmpty({ baseUrl: api.baseUrl, demoFile: missing })).rejects.toThrow(/is missing/);
    expect(existsSync(missing)).toBe(false);
  });

  it('serves its locations over several pages, and its users work with their tokens', async () => {
    const walk = await walkPages(api, `/v15/apps/${demo!.app.id}/locations?fulfillment_types=delivery,in_store,pickup`, {
      keyOf: (item: { location: { id: number } }) => item.location.id,
      carries: ['fulfillment_types'],
    });
    expect(walk.items).toHaveLength(demo!.merchant.location_ids.length + demo!.other_merchant.location_ids.length);
    expect(walk.pages.length).toBeGreaterThanOrEqual(3);

    const [withCard, withoutCard] = demo!.users;
    expect((await api.call('GET', '/v15/credit_cards', { token: withCard!.token })).body).toHaveLength(1);
    const user = await api.call('GET', '/v15/users', { token: withoutCard!.token });
    expect(user.body.user.email).toBe(withoutCard!.email);
  });

  it('prints a walkthrough with the demo values', () => {
    const printed: string[] = [];
    const spy = vi.spyOn(console, 'log').mockImplementation((line: string) => void printed.push(line));
    printWalkthrough(demo!);
    spy.mockRestore();
    const text = printed.join('\n');
    expect(text).toContain(`/v15/apps/${demo!.app.id}/locations`);
    expect(text).toContain(demo!.users[0]!.token);
    expect(text).toContain(api.baseUrl);
    expect(text).toContain(`/v15/merchants/${demo!.merchant.id}/all_campaigns`);
  });
});
