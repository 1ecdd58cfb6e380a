/**
 * A staff member's life through HTTP (issue 38 point 1; docs/merchant-api.md "Staff"): an owner invites them, the
 * mailed link sets their first password, they log in through POST /v15/access_tokens and their merchant token answers
 * POS routes as the shared login's does (user_id an integer); a role change and a removal revoke their tokens at once;
 * the last owner can be neither removed nor demoted, even by two owners demoting each other at once; the same email
 * invited twice at once is one staff member; an email that signs in already is 422 `taken`.
 */
import { describe, expect, it } from 'vitest';
import { merchantFixture, userFixture } from '../support/fixtures.ts';
import { locationFixture } from '../support/locations.ts';
import { mailTo, resetLinkIn } from '../support/mailbox.ts';
import { staffEmail, staffFixture } from '../support/staff.ts';
import { useMailingTestApi } from '../support/webhooks.ts';

// The invite mail is composed and sent from the table's stream, after the answer.
const mailing = useMailingTestApi();
const { api } = mailing;

/** A merchant with one owner (stored, with a password), as the operators' CLI starts one. */
async function merchantWithOwner() {
  const merchant = await merchantFixture(mailing.app.app.app_id);
  const owner = await staffFixture(mailing.app.app.app_id, merchant.merchant.merchant_id, 'owner', { password: 'owner password 1' });
  return { merchant, merchantId: merchant.merchant.merchant_id, owner };
}

const logIn = (username: string, password: string) =>
  api.call('POST', '/v15/access_tokens', { body: { access_token: { api_key: mailing.app.apiKey, username, password } } });

const staffPath = (merchantId: number, staffId?: number | 'me') => `/v15/merchants/${merchantId}/staff${staffId === undefined ? '' : `/${staffId}`}`;

async function invite(merchantId: number, token: string, role: 'owner' | 'manager' | 'staff', email = staffEmail(role), headers: Record<string, string> = {}) {
  return api.call('POST', staffPath(merchantId), { token, headers, body: { staff: { email, name: `Invited ${role}`, role } } });
}

/** Sets the invited person's first password through the mailed link, as the password page does. */
async function acceptInvite(email: string, password: string) {
  const [mail] = await mailTo(email);
  expect(mail?.subject).toMatch(/^You are invited to /);
  const secret = new URL(resetLinkIn(mail!)).hash.slice('#token='.length);
  const set = await api.call('POST', '/v15/password_resets', { body: { password_reset: { token: secret, password } } });
  expect(set.status, set.text).toBe(204);
  return secret;
}

describe('invite, first password, login', () => {
  it('the invited person sets a password through the mailed link, logs in, and their token serves POS routes and the management API', async () => {
    const { merchant, merchantId, owner } = await merchantWithOwner();
    const location = await locationFixture(merchantId);
    const email = staffEmail('cashier');
    const invited = await invite(merchantId, owner.token, 'staff', email.toUpperCase());
    expect(invited.status, invited.text).toBe(200);
    expect(invited.body.staff).toMatchObject({ email, role: 'staff', status: 'invited', invited_by: owner.staffId, merchant_id: merchantId });
    expect(JSON.stringify(invited.body)).not.toMatch(/password|hash|code/);

    // No password yet: the login refuses whatever is sent, as a wrong password.
    expect((await logIn(email, 'anything at all')).body).toEqual([{ error: expect.objectContaining({ code: 'invalid_credentials' }) }]);
    const secret = await acceptInvite(email, 'cashier password 1');

    const login = await logIn(email, 'cashier password 1');
    expect(login.status, login.text).toBe(200);
    expect(login.body.access_token).toEqual({
      token: expect.any(String),
      app_id: mailing.app.app.app_id,
      user_id: expect.any(Number),
      merchant_id: merchantId,
    });
    expect(Number.isInteger(login.body.access_token.user_id)).toBe(true);
    const token: string = login.body.access_token.token;

    // A POS route answers the staff member's token as it answers the shared login's.
    const pos = await api.call('GET', `/v14/merchants/${merchantId}/locations`, { token });
    const shared = await api.call('GET', `/v14/merchants/${merchantId}/locations`, { token: merchant.token });
    expect(pos.status, pos.text).toBe(200);
    expect(pos.text).toContain(`"id":${location.location_id}`);
    expect(pos.text).toBe(shared.text);
    const me = await api.call('GET', staffPath(merchantId, 'me'), { token });
    expect(me.status).toBe(200);
    expect(me.body.staff).toMatchObject({ id: invited.body.staff.id, email, role: 'staff', status: 'active' });
    // The link worked once.
    const again = await api.call('POST', '/v15/password_resets', { body: { password_reset: { token: secret, password: 'another password 2' } } });
    expect(again.status).toBe(422);
  });

  it('an email that signs in already (a user, a staff member) is 422 taken, and changes nothing', async () => {
    const { merchantId, owner } = await merchantWithOwner();
    const user = await userFixture(mailing.app.app.app_id);
    const before = (await api.call('GET', staffPath(merchantId), { token: owner.token })).text;
    for (const email of [user.email, owner.email]) {
      const response = await invite(merchantId, owner.token, 'manager', email);
      expect(response.status, response.text).toBe(422);
      expect(response.body).toEqual([{ error: expect.objectContaining({ object: 'staff', property: 'email', code: 'taken' }) }]);
    }
    expect((await api.call('GET', staffPath(merchantId), { token: owner.token })).text).toBe(before);
  });

  it('the same email invited twice at once is one staff member; a retry under the same Idempotency-Key answers the first answer', async () => {
    const { merchantId, owner } = await merchantWithOwner();
    const email = staffEmail('twice');
    const answers = await Promise.all([invite(merchantId, owner.token, 'staff', email), invite(merchantId, owner.token, 'staff', email)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 422]);
    const listed = await api.call('GET', staffPath(merchantId), { token: owner.token });
    expect(listed.body.filter((entry: { staff: { email: string } }) => entry.staff.email === email)).toHaveLength(1);

    const keyed = staffEmail('keyed');
    const headers = { 'Idempotency-Key': `invite-${keyed}` };
    const first = await invite(merchantId, owner.token, 'manager', keyed, headers);
    const retry = await invite(merchantId, owner.token, 'manager', keyed, headers);
    expect(first.status).toBe(200);
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(first.body);
  });

  it('lists the staff a page at a time, the Link of the last page answering 204', async () => {
    const { merchantId, owner } = await merchantWithOwner();
    await invite(merchantId, owner.token, 'staff');
    const page = await api.call('GET', staffPath(merchantId), { token: owner.token });
    expect(page.status).toBe(200);
    expect(page.body.map((entry: { staff: { role: string } }) => entry.staff.role)).toEqual(['owner', 'staff']);
    const next = /<([^>]+)>; rel="next"/.exec(page.headers.get('link') ?? '')?.[1];
    expect(next).toBeDefined();
    expect((await api.call('GET', next!, { token: owner.token })).status).toBe(204);
  });
});

describe('revocation', () => {
  it('removing a staff member revokes their tokens at once and deletes their login; their id is then 404', async () => {
    const { merchantId, owner } = await merchantWithOwner();
    const member = await staffFixture(mailing.app.app.app_id, merchantId, 'manager', { password: 'manager password 1' });
    const session = (await logIn(member.email, 'manager password 1')).body.access_token.token;
    expect((await api.call('GET', staffPath(merchantId, 'me'), { token: session })).status).toBe(200);

    const removed = await api.call('DELETE', staffPath(merchantId, member.staffId), { token: owner.token });
    expect(removed.status, removed.text).toBe(204);
    for (const token of [session, member.token]) expect((await api.call('GET', staffPath(merchantId, 'me'), { token })).status).toBe(401);
    expect((await api.call('GET', `/v14/merchants/${merchantId}/locations`, { token: session })).status).toBe(401);
    expect((await logIn(member.email, 'manager password 1')).body).toEqual([{ error: expect.objectContaining({ code: 'invalid_credentials' }) }]);
    expect((await api.call('DELETE', staffPath(merchantId, member.staffId), { token: owner.token })).status).toBe(404);
  });

  it('a role change revokes their tokens (they carry the old role); signing in again gives the new role', async () => {
    const { merchantId, owner } = await merchantWithOwner();
    const member = await staffFixture(mailing.app.app.app_id, merchantId, 'staff', { password: 'staff password 1' });
    const session = (await logIn(member.email, 'staff password 1')).body.access_token.token;
    const changed = await api.call('PUT', staffPath(merchantId, member.staffId), { token: owner.token, body: { staff: { role: 'manager' } } });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.staff).toMatchObject({ id: member.staffId, role: 'manager' });
    expect((await api.call('GET', staffPath(merchantId, 'me'), { token: session })).status).toBe(401);

    const again = (await logIn(member.email, 'staff password 1')).body.access_token.token;
    expect((await api.call('GET', staffPath(merchantId), { token: again })).status).toBe(200);
    // A name change alone keeps their tokens.
    expect((await api.call('PUT', staffPath(merchantId, member.staffId), { token: owner.token, body: { staff: { name: 'Renamed' } } })).status).toBe(200);
    expect((await api.call('GET', staffPath(merchantId, 'me'), { token: again })).body.staff).toMatchObject({ name: 'Renamed', role: 'manager' });
  });
});

describe('the last owner', () => {
  it('cannot be removed or demoted, and stays an owner', async () => {
    const { merchantId, owner } = await merchantWithOwner();
    const demote = await api.call('PUT', staffPath(merchantId, owner.staffId), { token: owner.token, body: { staff: { role: 'manager' } } });
    expect(demote.status, demote.text).toBe(422);
    expect(demote.body).toEqual([{ error: expect.objectContaining({ object: 'staff', property: 'role', code: 'last_owner' }) }]);
    const remove = await api.call('DELETE', staffPath(merchantId, owner.staffId), { token: owner.token });
    expect(remove.status).toBe(422);
    expect((await api.call('GET', staffPath(merchantId, 'me'), { token: owner.token })).body.staff.role).toBe('owner');
  });

  it('two owners demoting each other at once leave one owner', async () => {
    const { merchantId, owner } = await merchantWithOwner();
    const second = await staffFixture(mailing.app.app.app_id, merchantId, 'owner');
    const answers = await Promise.all([
      api.call('PUT', staffPath(merchantId, second.staffId), { token: owner.token, body: { staff: { role: 'staff' } } }),
      api.call('PUT', staffPath(merchantId, owner.staffId), { token: second.token, body: { staff: { role: 'staff' } } }),
    ]);
    // One wins; the other is refused: 422 last_owner, or 401 when the winner had revoked its token before it was admitted.
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect([401, 422]).toContain(answers.find((answer) => answer.status !== 200)!.status);
    const survivor = answers[0].status === 200 ? owner : second;
    const listed = await api.call('GET', staffPath(merchantId), { token: (await staffFixture(mailing.app.app.app_id, merchantId, 'manager')).token });
    const owners = listed.body
      .filter((entry: { staff: { role: string } }) => entry.staff.role === 'owner')
      .map((entry: { staff: { id: number } }) => entry.staff.id);
    expect(owners).toEqual([survivor.staffId]);
  });

  it('two owners removing each other at once leave one owner', async () => {
    const { merchantId, owner } = await merchantWithOwner();
    const second = await staffFixture(mailing.app.app.app_id, merchantId, 'owner');
    const answers = await Promise.all([
      api.call('DELETE', staffPath(merchantId, second.staffId), { token: owner.token }),
      api.call('DELETE', staffPath(merchantId, owner.staffId), { token: second.token }),
    ]);
    expect(answers.filter((answer) => answer.status === 204)).toHaveLength(1);
    expect([401, 422]).toContain(answers.find((answer) => answer.status !== 204)!.status);
    const survivor = answers[0].status === 204 ? owner : second;
    expect((await api.call('GET', staffPath(merchantId, 'me'), { token: survivor.token })).body.staff.role).toBe('owner');
  });
});
