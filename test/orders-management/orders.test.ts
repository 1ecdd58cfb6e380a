/**
 * A merchant's orders through the management API (issue 38; docs/merchant-api.md "Orders"): every role on every
 * route, the list's filters by location, day and state, the detail with its refund's approver, refunds and detached
 * refunds through the POS's own domain (once, even twice at once), another merchant's order 404, and the ledger audit 0.
 * At a merchant that requires a manager code, the refund takes the signed-in owner's or manager's OWN code only: none
 * set, none sent, another's or the shared code are refused (nothing refunded), wrong ones counted with the register's.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLedger } from '#shared/domain/money/ledger.ts';
import { MANAGER_CODE_ORDER_FAILURES } from '#shared/domain/rate-limits.ts';
import { useTestApi } from '../support/api.ts';
import { clientPayload } from '../support/client-payloads.ts';
import { locationFixture } from '../support/locations.ts';
import { orderWorld, placeOrder, worldBalances, type OrderWorld } from '../support/money.ts';
import { walkPages } from '../support/paging.ts';
import { merchantRoles } from '../support/staff.ts';

const api = useTestApi();

/** An order world (no shared manager code) with one token per role of its merchant, and another merchant's order world. */
async function ordersWorld() {
  const world = await orderWorld({ managerConfirmation: null });
  return { ...world, ...(await merchantRoles(world)) };
}

let world: Awaited<ReturnType<typeof ordersWorld>>;
let other: OrderWorld;
beforeAll(async () => {
  world = await ordersWorld();
  other = await orderWorld({ managerConfirmation: null });
});

const today = () => new Date().toISOString().slice(0, 10);
const list = (merchantId: number, query: string) => `/v15/merchants/${merchantId}/orders?${query}`;
const details = (merchantId: number, uuid: string) => `/v15/merchants/${merchantId}/orders/${uuid}/details`;
const refundPath = (merchantId: number, uuid: string) => `/v15/merchants/${merchantId}/orders/${uuid}/refund`;

async function newOrder(target: OrderWorld = world, fields: Record<string, unknown> = {}): Promise<string> {
  const placed = await placeOrder(api, target, { spend_amount: 1500, tip_amount: 200, ...fields });
  expect(placed.status, placed.text).toBe(200);
  return placed.body.order.uuid as string;
}

const detachedRequest = clientPayload('csharp_v15_detached_refunds__create.json').request_body.detached_refund;
const detachedBody = (target: OrderWorld, amount: number) => ({
  detached_refund: {
    ...detachedRequest,
    credit_amount: amount,
    location_id: target.location.location_id,
    payment_token_data: target.user.user.payment_token_data,
    manager_confirmation: null,
    identifier_from_merchant: null,
  },
});

describe('GET /v15/merchants/{merchant_id}/orders', () => {
  it("lists a location's orders, newest first, for every role; by day; by state within a day; its Link carries the filters", async () => {
    const first = await newOrder();
    const second = await newOrder();
    const refunded = await newOrder();
    expect((await api.call('POST', refundPath(world.merchantId, refunded), { token: world.owner })).status).toBe(200);
    const location = `location_id=${world.location.location_id}`;

    for (const token of [world.owner, world.manager, world.staff]) {
      const page = await api.call('GET', list(world.merchantId, location), { token });
      expect(page.status, page.text).toBe(200);
      expect(page.body.map((entry: any) => entry.order.uuid).slice(0, 3)).toEqual([refunded, second, first]);
      expect(page.body[0].order).toMatchObject({
        uuid: refunded,
        state: 'refunded',
        spend_amount: 1500,
        tip_amount: 200,
        location_id: world.location.location_id,
      });
    }

    const day = await walkPages<any>(api, list(world.merchantId, `${location}&day=${today()}&state=completed`), {
      call: { token: world.staff },
      keyOf: (entry) => entry.order.uuid,
      carries: ['location_id', 'day', 'state'],
    });
    expect(day.items.map((entry) => entry.order.uuid)).toEqual([second, first]);
    expect(day.items.every((entry) => entry.order.state === 'completed')).toBe(true);

    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const none = await api.call('GET', list(world.merchantId, `${location}&day=${yesterday}`), { token: world.staff });
    expect(none.status).toBe(204);
  });

  it('refuses what no index bounds or another merchant owns: 422 without location or a state without a day, 404 for their location, 401 for their staff', async () => {
    const noLocation = await api.call('GET', list(world.merchantId, ''), { token: world.owner });
    expect(noLocation.status).toBe(422);
    expect(noLocation.body[0].error).toMatchObject({ property: 'location_id' });

    const stateOnly = await api.call('GET', list(world.merchantId, `location_id=${world.location.location_id}&state=refunded`), { token: world.owner });
    expect(stateOnly.status).toBe(422);
    expect(stateOnly.body[0].error).toMatchObject({ property: 'day', code: 'missing' });

    const badDay = await api.call('GET', list(world.merchantId, `location_id=${world.location.location_id}&day=2026-02-30`), { token: world.owner });
    expect(badDay.status).toBe(422);

    const theirs = await api.call('GET', list(world.merchantId, `location_id=${other.location.location_id}`), { token: world.owner });
    expect(theirs.status).toBe(404);
    const ownButEmpty = await locationFixture(world.merchantId);
    expect((await api.call('GET', list(world.merchantId, `location_id=${ownButEmpty.location_id}`), { token: world.owner })).status).toBe(204);

    const foreign = await api.call('GET', list(world.merchantId, `location_id=${world.location.location_id}`), { token: world.otherOwner });
    expect(foreign.status).toBe(401);
  });
});

describe('GET /v15/merchants/{merchant_id}/orders/{uuid}/details', () => {
  it('answers every role the order in detail: amounts, tip, gift card and credit used, location; another merchant gets 401, their order is 404', async () => {
    const uuid = await newOrder();
    for (const token of [world.owner, world.manager, world.staff]) {
      const shown = await api.call('GET', details(world.merchantId, uuid), { token });
      expect(shown.status, shown.text).toBe(200);
      expect(shown.body.order).toMatchObject({
        uuid,
        state: 'completed',
        spend_amount: 1500,
        tip_amount: 200,
        total_amount: 1700,
        charged_amount: 1700,
        gift_card_total_amount: 0,
        applied_discount_amount: 0,
        location_id: world.location.location_id,
        merchant_id: world.merchantId,
        refund: null,
      });
    }
    expect((await api.call('GET', details(world.merchantId, uuid), { token: world.otherOwner })).status).toBe(401);

    const theirs = await newOrder(other);
    const hidden = await api.call('GET', details(world.merchantId, theirs), { token: world.owner });
    const unknown = await api.call('GET', details(world.merchantId, '00000000-0000-4000-8000-000000000000'), { token: world.owner });
    expect(hidden.status).toBe(404);
    expect(hidden.text).toBe(unknown.text);
  });
});

describe('POST /v15/merchants/{merchant_id}/orders/{uuid}/refund', () => {
  it('refunds once for a manager, recorded as the approver in the order and the audit log; the staff role 403, nothing refunded', async () => {
    const uuid = await newOrder();
    const refused = await api.call('POST', refundPath(world.merchantId, uuid), { token: world.staff });
    expect(refused.status).toBe(403);
    expect(refused.body[0].error).toMatchObject({ code: 'role_not_allowed' });
    expect((await api.call('GET', details(world.merchantId, uuid), { token: world.staff })).body.order.state).toBe('completed');

    const refunded = await api.call('POST', refundPath(world.merchantId, uuid), { token: world.manager, headers: { 'Idempotency-Key': `refund-${uuid}` } });
    expect(refunded.status, refunded.text).toBe(200);
    expect(refunded.body.order).toMatchObject({ uuid, state: 'refunded', refund: { approved_by_staff_id: world.managerId, credit_reversed_amount: 0 } });
    const again = await api.call('POST', refundPath(world.merchantId, uuid), { token: world.manager, headers: { 'Idempotency-Key': `refund-${uuid}` } });
    expect(again.text).toBe(refunded.text);

    const shown = await api.call('GET', details(world.merchantId, uuid), { token: world.staff });
    expect(shown.body.order.refund).toEqual({ approved_by_staff_id: world.managerId, credit_reversed_amount: 0, detached_refund_reversed_amount: 0 });
    const audit = await api.call('GET', `/v15/merchants/${world.merchantId}/audit_log`, { token: world.owner });
    expect(audit.body.map((entry: any) => entry.audit_entry)).toContainEqual(expect.objectContaining({ approved_by_staff_id: world.managerId }));
  });

  it('refunds the same order once when an owner and a manager send it at the same moment; the ledger audit stays 0', async () => {
    const target = await ordersWorld();
    const placed = await placeOrder(api, target, { spend_amount: 2000 });
    const uuid = placed.body.order.uuid as string;
    expect(await worldBalances(target)).toMatchObject({ card: 2000 });
    const answers = await Promise.all(
      [target.owner, target.manager, target.owner, target.manager].map((token) => api.call('POST', refundPath(target.merchantId, uuid), { token })),
    );
    for (const answer of answers) expect([200, 409], answer.text).toContain(answer.status);
    expect(answers.some((answer) => answer.status === 200)).toBe(true);
    for (const answer of answers.filter((each) => each.status === 409)) expect(answer.headers.get('retry-after')).toBeTruthy();
    expect(await worldBalances(target)).toMatchObject({ card: 0 });
    expect((await auditLedger()).mismatches).toEqual([]);
  });

  it("answers another merchant's order 404 as an unknown one, their staff 401, and refunds nothing", async () => {
    const theirs = await newOrder(other);
    const before = await worldBalances(other);
    const hidden = await api.call('POST', refundPath(world.merchantId, theirs), { token: world.owner });
    const unknown = await api.call('POST', refundPath(world.merchantId, '00000000-0000-4000-8000-000000000000'), { token: world.owner });
    expect(hidden.status).toBe(404);
    expect(hidden.text).toBe(unknown.text);
    expect((await api.call('POST', refundPath(other.merchant.merchant.merchant_id, theirs), { token: world.owner })).status).toBe(401);
    expect(await worldBalances(other)).toEqual(before);
  });
});

describe('POST /v15/merchants/{merchant_id}/orders/{uuid}/refund at a merchant that requires a manager code', () => {
  /** Codes no id, amount or time of this file contains. */
  const SHARED_CODE = '51723';
  const MANAGER_CODE = '73925184';
  const OWNER_CODE = '6618';

  async function codeWorld(sharedCode: string | null = SHARED_CODE) {
    const target = await orderWorld({ managerConfirmation: sharedCode });
    return { ...target, ...(await merchantRoles(target)) };
  }
  type CodeWorld = Awaited<ReturnType<typeof codeWorld>>;
  const setCode = async (target: CodeWorld, token: string, code: string) => {
    const set = await api.call('PUT', `/v15/merchants/${target.merchantId}/staff/me/manager_code`, { token, body: { manager_code: { code } } });
    expect(set.status, set.text).toBe(204);
  };
  const refundWith = (target: CodeWorld, uuid: string, token: string, code?: string | null) =>
    api.call('POST', refundPath(target.merchantId, uuid), { token, body: code === undefined ? {} : { refund: { manager_confirmation: code } } });
  const stateOf = async (target: CodeWorld, uuid: string) =>
    (await api.call('GET', details(target.merchantId, uuid), { token: target.owner })).body.order.state;
  const refusal = (code: string) => [{ error: expect.objectContaining({ object: 'refund', property: 'manager_confirmation', code }) }];

  it("refunds with the manager's own code, recorded as approved by them; none, the owner's or the shared code is refused and refunds nothing", async () => {
    const target = await codeWorld();
    await setCode(target, target.manager, MANAGER_CODE);
    await setCode(target, target.owner, OWNER_CODE);
    const uuid = await newOrder(target);

    const none = await refundWith(target, uuid, target.manager);
    expect(none.status, none.text).toBe(422);
    expect(none.body).toEqual(refusal('manager_code_required'));
    // Another person's valid code and the shared code are the same answer as a wrong one: it never says whose it was.
    const others = await Promise.all([OWNER_CODE, SHARED_CODE, '99999999'].map((code) => refundWith(target, uuid, target.manager, code)));
    for (const other of others) {
      expect(other.status, other.text).toBe(422);
      expect(other.body).toEqual(refusal('manager_code_incorrect'));
      expect(other.text).toBe(others[0]!.text);
    }
    expect(await stateOf(target, uuid)).toBe('completed');

    const refunded = await refundWith(target, uuid, target.manager, MANAGER_CODE);
    expect(refunded.status, refunded.text).toBe(200);
    expect(refunded.body.order).toMatchObject({ uuid, state: 'refunded', refund: { approved_by_staff_id: target.managerId } });
    const audit = await api.call('GET', `/v15/merchants/${target.merchantId}/audit_log?action=order.refunded`, { token: target.owner });
    expect(audit.body.map((entry: any) => entry.audit_entry)).toEqual([
      expect.objectContaining({
        actor: expect.objectContaining({ kind: 'staff', staff_id: target.managerId, role: 'manager' }),
        approved_by_staff_id: target.managerId,
        object: { type: 'order', id: uuid },
      }),
    ]);
    // The owner approves with their own code too.
    const second = await newOrder(target);
    expect((await refundWith(target, second, target.owner, MANAGER_CODE)).body).toEqual(refusal('manager_code_incorrect'));
    const byOwner = await refundWith(target, second, target.owner, OWNER_CODE);
    expect(byOwner.status, byOwner.text).toBe(200);
    expect(byOwner.body.order.refund).toMatchObject({ approved_by_staff_id: target.ownerId });
  });

  it('tells a manager without a code of their own to set one, whatever they send; once set, their code refunds', async () => {
    // No shared code: the owner's own code is what makes this merchant require codes.
    const target = await codeWorld(null);
    await setCode(target, target.owner, OWNER_CODE);
    const uuid = await newOrder(target);
    for (const code of [undefined, null, OWNER_CODE]) {
      const refused = await refundWith(target, uuid, target.manager, code);
      expect(refused.status, refused.text).toBe(422);
      expect(refused.body).toEqual(refusal('manager_code_not_set'));
    }
    expect(await stateOf(target, uuid)).toBe('completed');
    await setCode(target, target.manager, MANAGER_CODE);
    const refunded = await refundWith(target, uuid, target.manager, MANAGER_CODE);
    expect(refunded.status, refunded.text).toBe(200);
    expect(refunded.body.order.refund).toMatchObject({ approved_by_staff_id: target.managerId });
  });

  it("counts wrong codes in the register's windows: the register's misses and the manager's together lock the order, even for the right code", async () => {
    const target = await codeWorld();
    await setCode(target, target.manager, MANAGER_CODE);
    const uuid = await newOrder(target);
    const atRegister = 2;
    for (let attempt = 0; attempt < atRegister; attempt++) {
      const wrong = await api.call('POST', `/v15/orders/${uuid}/refund`, {
        token: target.merchant.token,
        body: { refund: { manager_confirmation: String(40000000 + attempt) } },
      });
      expect(wrong.status, wrong.text).toBe(422);
    }
    // Neither a missing code nor a right one is counted; only wrong ones are.
    expect((await refundWith(target, uuid, target.manager)).body).toEqual(refusal('manager_code_required'));
    for (let attempt = atRegister; attempt < MANAGER_CODE_ORDER_FAILURES.limit; attempt++) {
      const wrong = await refundWith(target, uuid, target.manager, String(40000000 + attempt));
      expect(wrong.status, wrong.text).toBe(422);
      expect(wrong.body).toEqual(refusal('manager_code_incorrect'));
    }
    const locked = await refundWith(target, uuid, target.manager, MANAGER_CODE);
    expect(locked.status, locked.text).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(locked.body[0].error).toMatchObject({ object: 'refund', code: 'manager_confirmation_locked' });
    expect(await stateOf(target, uuid)).toBe('completed');
    // No refund entry: the audit log's first page is empty (204).
    const audit = await api.call('GET', `/v15/merchants/${target.merchantId}/audit_log?action=order.refunded`, { token: target.owner });
    expect(audit.status, audit.text).toBe(204);
  });
});

describe('POST /v15/merchants/{merchant_id}/detached_refunds', () => {
  it('gives credit once per Idempotency-Key for an owner, with the owner as approver; the staff role 403; another merchant 401', async () => {
    const before = await worldBalances(world);
    const path = `/v15/merchants/${world.merchantId}/detached_refunds`;
    const refused = await api.call('POST', path, { token: world.staff, body: detachedBody(world, 100) });
    expect(refused.status).toBe(403);
    expect((await api.call('POST', path, { token: world.otherOwner, body: detachedBody(world, 100) })).status).toBe(401);
    expect(await worldBalances(world)).toEqual(before);

    const headers = { 'Idempotency-Key': `detached-${world.merchantId}` };
    const given = await api.call('POST', path, { token: world.owner, body: detachedBody(world, 100), headers });
    expect(given.status, given.text).toBe(200);
    const again = await api.call('POST', path, { token: world.owner, body: detachedBody(world, 100), headers });
    expect(again.text).toBe(given.text);
    expect(await worldBalances(world)).toEqual({ ...before, credit: before.credit + 100 });
    expect((await auditLedger()).mismatches).toEqual([]);
  });
});
