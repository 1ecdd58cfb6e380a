/**
 * The operators' first owner (docs/merchant-api.md "Migration"; docs/operations.md): `npm run admin -- staff-add-owner`
 * adds a merchant's first owner, mailed a link that sets their password, after which they log in and manage the
 * merchant's staff; the command refuses a second owner (the owners invite the others), an unknown merchant and a bad
 * email, changing nothing. The merchant's shared login keeps working for the POS and gets no management access.
 */
import { describe, expect, it } from 'vitest';
import { runAdmin } from '../support/admin.ts';
import { merchantFixture } from '../support/fixtures.ts';
import { mailTo, resetLinkIn } from '../support/mailbox.ts';
import { staffEmail } from '../support/staff.ts';
import { useMailingTestApi } from '../support/webhooks.ts';

const mailing = useMailingTestApi();
const { api } = mailing;

const addOwner = (merchantId: number, email: string) =>
  runAdmin(['staff-add-owner', '--merchant-id', String(merchantId), '--email', email, '--name', 'First Owner', '--base-url', api.baseUrl], api);

describe('staff-add-owner', () => {
  it('adds the first owner, who sets a password through the mailed link and manages the staff; a second owner is refused', async () => {
    const merchant = await merchantFixture(mailing.app.app.app_id);
    const merchantId = merchant.merchant.merchant_id;
    const email = staffEmail('first-owner');
    const added = await addOwner(merchantId, email);
    expect(added.code, added.stderr).toBe(0);
    expect(JSON.parse(added.stdout).staff).toMatchObject({ email, role: 'owner', status: 'invited', invited_by: null, merchant_id: merchantId });

    const [mail] = await mailTo(email);
    const secret = new URL(resetLinkIn(mail!)).hash.slice('#token='.length);
    expect((await api.call('POST', '/v15/password_resets', { body: { password_reset: { token: secret, password: 'first owner password' } } })).status).toBe(
      204,
    );
    const login = await api.call('POST', '/v15/access_tokens', {
      body: { access_token: { api_key: mailing.app.apiKey, username: email, password: 'first owner password' } },
    });
    expect(login.status, login.text).toBe(200);
    const token: string = login.body.access_token.token;
    const invite = await api.call('POST', `/v15/merchants/${merchantId}/staff`, {
      token,
      body: { staff: { email: staffEmail('manager'), name: 'A Manager', role: 'manager' } },
    });
    expect(invite.status, invite.text).toBe(200);

    // The shared login: the POS as before, no management access.
    expect((await api.call('GET', `/v15/merchants/${merchantId}/staff`, { token: merchant.token })).status).toBe(403);
    const staffBefore = (await api.call('GET', `/v15/merchants/${merchantId}/staff`, { token })).text;
    const second = await addOwner(merchantId, staffEmail('second-owner'));
    expect(second.code).toBe(1);
    expect(second.stderr).toContain('has an owner already');
    expect((await api.call('GET', `/v15/merchants/${merchantId}/staff`, { token })).text).toBe(staffBefore);
  });

  it('refuses an unknown merchant and a malformed email', async () => {
    const unknown = await addOwner(987_654_321, staffEmail('nobody'));
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No merchant has this id');
    const merchant = await merchantFixture(mailing.app.app.app_id);
    const malformed = await addOwner(merchant.merchant.merchant_id, 'not-an-email');
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain('--email');
  });
});
