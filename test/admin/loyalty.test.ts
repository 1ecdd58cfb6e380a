import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { runAdmin } from '../support/admin.ts';
import { appFixture, merchantFixture, userFixture } from '../support/fixtures.ts';
import { staffToken } from '../support/staff.ts';

const api = useTestApi();

const admin = (args: string[]) => runAdmin(args, api);

describe('npm run admin: loyalty commands', () => {
  it('creates campaigns of each kind the API then shows, and imports legacy cards a user can claim', async () => {
    const { app } = await appFixture();
    const { merchant } = await merchantFixture(app.app_id);
    const merchantId = String(merchant.merchant_id);

    const item = await admin([
      'create-campaign',
      '--merchant-id',
      merchantId,
      '--kind',
      'item',
      '--title',
      'Coffee club',
      '--required',
      '5',
      '--earn-amount',
      '300',
      '--item-rules',
      'sku:COFFEE-12,category:Coffee',
      '--json',
      '{"required_item_singular":"coffee","required_item_plural":"coffees"}',
    ]);
    expect(item.code, item.stderr).toBe(0);
    const itemCampaign = JSON.parse(item.stdout).campaign;
    expect(itemCampaign).toMatchObject({
      kind: 'item',
      required_item_count: 5,
      earn_amount: 300,
      item_rules: [
        { field: 'sku', value: 'COFFEE-12' },
        { field: 'category', value: 'Coffee' },
      ],
    });

    const spend = JSON.parse(
      (await admin(['create-campaign', '--merchant-id', merchantId, '--kind', 'spend', '--title', 'Spend', '--required', '5000', '--earn-amount', '500']))
        .stdout,
    ).campaign;
    const legacy = await admin([
      'create-campaign',
      '--merchant-id',
      merchantId,
      '--kind',
      'legacy',
      '--title',
      'Punch cards',
      '--app-id',
      String(app.app_id),
      '--progress-campaign-id',
      String(spend.campaign_id),
      '--cohort-code',
      `PUNCH${Date.now()}`,
    ]);
    expect(legacy.code, legacy.stderr).toBe(0);
    const legacyCampaign = JSON.parse(legacy.stdout).campaign;

    // Each is in the merchant's audit log as the operators', as the management route logs its owner's.
    const log = await api.call('GET', `/v15/merchants/${merchantId}/audit_log?action=campaign.created`, {
      token: await staffToken(app.app_id, merchant.merchant_id, 'owner'),
    });
    expect(log.status, log.text).toBe(200);
    expect(
      log.body
        .map(({ audit_entry }: { audit_entry: { object: { id: string }; actor: { kind: string } } }) => [Number(audit_entry.object.id), audit_entry.actor.kind])
        .sort(),
    ).toEqual([itemCampaign.campaign_id, spend.campaign_id, legacyCampaign.campaign_id].sort().map((id: number) => [id, 'operator']));

    const directory = mkdtempSync(join(tmpdir(), 'legacy-'));
    const file = join(directory, 'cards.csv');
    writeFileSync(file, 'legacy_id,value_amount,progress_amount\nPUNCH-1,250,700\nPUNCH-2,100\n');
    const imported = await admin(['import-legacy-cards', '--campaign-id', String(legacyCampaign.campaign_id), '--file', file]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout)).toEqual({ campaign_id: legacyCampaign.campaign_id, imported: 2, skipped: 0 });

    const { token } = await userFixture(app.app_id);
    expect((await api.call('GET', `/v15/campaigns/${itemCampaign.campaign_id}/item_based_loyalty_v1`, { token })).body.campaign).toMatchObject({
      required_item_count: 5,
      required_item_singular: 'coffee',
    });
    const claim = await api.call('POST', `/v15/loyalties/legacy/0/claims`, { token, body: { legacy_loyalty: { legacy_id: 'PUNCH-1' } } });
    expect(claim.status).toBe(200);
    expect(claim.body.claim).toMatchObject({ value_amount: 250, progress_adjustments: [{ adjustment_amount: 700 }] });
  });

  it('exits 2 with the usage for a missing requirement or an unknown kind, 1 for an invalid campaign', async () => {
    const { app } = await appFixture();
    const { merchant } = await merchantFixture(app.app_id);
    expect((await admin(['create-campaign', '--merchant-id', String(merchant.merchant_id), '--kind', 'bogus', '--title', 'x'])).code).toBe(2);
    const invalid = await admin(['create-campaign', '--merchant-id', String(merchant.merchant_id), '--kind', 'visit', '--title', 'No requirement']);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain('required_visit_count');
  });
});
