/**
 * Every role on every staff route (issue 38; docs/merchant-api.md, the role table): what a role may do it does,
 * another role of the same merchant is 403 `role_not_allowed`, another merchant's owner is 401, the merchant's shared
 * login is 403 `staff_login_required`, and no refused request changes anything. A manager can neither invite
 * (an owner or anyone) nor promote themselves.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildDocument } from '#shared/openapi/document.ts';
import { type StaffRole } from '#shared/routes.ts';
import { useTestApi } from '../support/api.ts';
import { appFixture, merchantFixture } from '../support/fixtures.ts';
import { roleTableTests, staffEmail, staffFixture, type RoleProbe } from '../support/staff.ts';

const api = useTestApi();

/** What docs/merchant-api.md says each role may call (written out here, not read from the route table). */
const ALLOWED: Record<string, readonly StaffRole[]> = {
  'staff-list': ['owner', 'manager'],
  'staff-create': ['owner'],
  'staff-me-show': ['owner', 'manager', 'staff'],
  'staff-update': ['owner'],
  'staff-delete': ['owner'],
};
const ROLES: readonly StaffRole[] = ['owner', 'manager', 'staff'];

let appId: number;
let merchantId: number;
let sharedLoginToken: string;
let tokens: Record<StaffRole, string>;
let otherOwnerToken: string;

beforeAll(async () => {
  const { app } = await appFixture();
  appId = app.app_id;
  const merchant = await merchantFixture(appId);
  merchantId = merchant.merchant.merchant_id;
  sharedLoginToken = merchant.token;
  const [owner, manager, staff] = await Promise.all(ROLES.map((role) => staffFixture(appId, merchantId, role)));
  tokens = { owner: owner!.token, manager: manager!.token, staff: staff!.token };
  const other = await merchantFixture(appId);
  otherOwnerToken = (await staffFixture(appId, other.merchant.merchant_id, 'owner')).token;
});

/** A request of a route on fresh data (a target of its own, a new email), and how to tell it changed nothing. */
interface Probe extends RoleProbe {
  /** What the owner lists, to compare before and after a refused attempt. */
  unchanged: () => Promise<string>;
}

const listed = async () => (await api.call('GET', `/v15/merchants/${merchantId}/staff`, { token: tokens.owner })).text;

async function probe(handler: string): Promise<Probe> {
  const base = `/v15/merchants/${merchantId}/staff`;
  if (handler === 'staff-list') return { method: 'GET', path: base, success: 200, unchanged: listed };
  if (handler === 'staff-me-show') return { method: 'GET', path: `${base}/me`, success: 200, unchanged: listed };
  if (handler === 'staff-create') {
    const email = staffEmail('invited');
    return { method: 'POST', path: base, body: { staff: { email, name: 'New Person', role: 'owner' } }, success: 200, unchanged: listed };
  }
  const target = await staffFixture(appId, merchantId, 'staff');
  if (handler === 'staff-update') {
    return { method: 'PUT', path: `${base}/${target.staffId}`, body: { staff: { role: 'manager', name: 'Promoted' } }, success: 200, unchanged: listed };
  }
  if (handler === 'staff-delete') return { method: 'DELETE', path: `${base}/${target.staffId}`, success: 204, unchanged: listed };
  throw new Error(`no probe for ${handler}`);
}

describe('staff routes by role', () => {
  roleTableTests(api, 'staff', 'staff-', ALLOWED, () => ({ probe, tokens, otherOwnerToken, sharedLoginToken }));

  it("the document's 403 examples are what the API answers", async () => {
    const document = (await buildDocument()) as unknown as { components: { responses: Record<string, any> } };
    const examples = document.components.responses.Forbidden.content['application/json'].examples;
    const shared = await api.call('GET', `/v15/merchants/${merchantId}/staff`, { token: sharedLoginToken });
    expect(shared.body).toEqual(examples.staff_login_required.value);
    const manager = await api.call('POST', `/v15/merchants/${merchantId}/staff`, {
      token: tokens.manager,
      body: { staff: { email: staffEmail(), name: 'X', role: 'staff' } },
    });
    expect(manager.body).toEqual(examples.role_not_allowed.value);
  });

  it('a manager cannot invite an owner, nor make themselves one', async () => {
    const me = (await api.call('GET', `/v15/merchants/${merchantId}/staff/me`, { token: tokens.manager })).body.staff;
    expect(me.role).toBe('manager');
    const invite = await api.call('POST', `/v15/merchants/${merchantId}/staff`, {
      token: tokens.manager,
      body: { staff: { email: staffEmail('owner'), name: 'Another Owner', role: 'owner' } },
    });
    expect(invite.status).toBe(403);
    const promote = await api.call('PUT', `/v15/merchants/${merchantId}/staff/${me.id}`, { token: tokens.manager, body: { staff: { role: 'owner' } } });
    expect(promote.status).toBe(403);
    expect((await api.call('GET', `/v15/merchants/${merchantId}/staff/me`, { token: tokens.manager })).body.staff.role).toBe('manager');
  });

  it("another merchant's staff id is 404 to an owner (whoever it belongs to)", async () => {
    const other = await merchantFixture(appId);
    const theirs = await staffFixture(appId, other.merchant.merchant_id, 'staff');
    const update = await api.call('PUT', `/v15/merchants/${merchantId}/staff/${theirs.staffId}`, {
      token: tokens.owner,
      body: { staff: { name: 'Mine now' } },
    });
    expect(update.status).toBe(404);
    expect(update.body).toEqual([{ error: expect.objectContaining({ object: 'staff', code: 'not_found' }) }]);
    expect((await api.call('DELETE', `/v15/merchants/${merchantId}/staff/${theirs.staffId}`, { token: tokens.owner })).status).toBe(404);
    expect((await api.call('GET', `/v15/merchants/${other.merchant.merchant_id}/staff/me`, { token: theirs.token })).body.staff.name).toBe('Test staff');
  });

  it('bad input is a 422 in the error format and changes nothing', async () => {
    const before = await listed();
    const cases = [
      { staff: { email: 'not an email', name: 'X', role: 'staff' } },
      { staff: { email: staffEmail(), name: 'x'.repeat(101), role: 'staff' } },
      { staff: { email: staffEmail(), name: 'X', role: 'admin' } },
      { staff: { email: staffEmail(), name: '   ', role: 'staff' } },
    ];
    for (const body of cases) {
      const response = await api.call('POST', `/v15/merchants/${merchantId}/staff`, { token: tokens.owner, body });
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.body[0].error.object).toBe('staff');
    }
    const target = (await staffFixture(appId, merchantId, 'staff')).staffId;
    const afterFixture = await listed();
    const empty = await api.call('PUT', `/v15/merchants/${merchantId}/staff/${target}`, { token: tokens.owner, body: { staff: {} } });
    expect(empty.status).toBe(422);
    expect(await listed()).toBe(afterFixture);
    expect(afterFixture).not.toBe(before);
  });
});
