/**
 * Per-staff manager codes through HTTP (issue 38 point 1; docs/merchant-api.md, "Manager codes"): each owner or
 * manager sets their own code, never readable back; a refund, detached refund, credit grant or gift card value removal
 * approved with it records that staff member (on the record and in its audit entry, same transaction); the
 * merchant's shared code keeps working; wrong codes lock out as before; a code held by another is refused anonymously.
 */
import { describe, expect, it } from 'vitest';
import { getOrder } from '#shared/domain/orders/record.ts';
import { MANAGER_CODE_ORDER_FAILURES } from '#shared/domain/rate-limits.ts';
import { useTestApi, type ApiCall, type ApiResult } from '../support/api.ts';
import { loadGiftCard, orderWorld, placeOrder, type OrderWorld } from '../support/money.ts';
import { merchantRoles } from '../support/staff.ts';

const rawApi = useTestApi();
/** Every answer of this file, to show that no code ever comes back. */
const answers: ApiResult[] = [];
async function call(method: string, path: string, options: ApiCall = {}): Promise<ApiResult> {
  const result = await rawApi.call(method, path, options);
  answers.push(result);
  return result;
}

const SHARED_CODE = '51723';
/** Codes no id, amount or time of this file contains. */
const MANAGER_CODE = '73925184';
const OWNER_CODE = '6618';

async function codeWorld(options: { sharedCode?: string | null } = {}) {
  const world = await orderWorld({ managerConfirmation: options.sharedCode === undefined ? SHARED_CODE : options.sharedCode });
  return { ...world, ...(await merchantRoles(world)) };
}
type CodeWorld = Awaited<ReturnType<typeof codeWorld>>;

const setCode = (world: CodeWorld, token: string, code: string, headers?: Record<string, string>) =>
  call('PUT', `/v15/merchants/${world.merchantId}/staff/me/manager_code`, { token, body: { manager_code: { code } }, headers });

const refund = (world: OrderWorld, uuid: string, code: string | null, token = world.merchant.token) =>
  call('POST', `/v15/orders/${uuid}/refund`, { token, body: { refund: { manager_confirmation: code } } });

async function completedOrder(world: OrderWorld): Promise<string> {
  const completed = await placeOrder(rawApi, world);
  expect(completed.status, completed.text).toBe(200);
  return completed.body.order.uuid;
}

interface ListedEntry {
  action: string;
  actor: { kind: string; staff_id: number | null };
  object: { type: string; id: string };
  approved_by_staff_id: number | null;
  after: unknown;
}

async function auditEntries(world: CodeWorld, query = ''): Promise<ListedEntry[]> {
  const listed = await call('GET', `/v15/merchants/${world.merchantId}/audit_log${query}`, { token: world.owner });
  if (listed.status === 204) return [];
  expect(listed.status, listed.text).toBe(200);
  return (listed.body as { audit_entry: ListedEntry }[]).map((item) => item.audit_entry);
}

describe('setting one own code', () => {
  it('owner and manager set theirs (204, the entry says "set"); staff 403; the shared login 403; another merchant 401', async () => {
    const world = await codeWorld();
    const manager = await setCode(world, world.manager, MANAGER_CODE, { 'Idempotency-Key': 'code-1' });
    expect(manager.status, manager.text).toBe(204);
    expect(manager.text).toBe('');
    expect((await setCode(world, world.owner, OWNER_CODE)).status).toBe(204);
    const staff = await setCode(world, world.staff, '1357');
    expect(staff.status).toBe(403);
    expect(staff.body[0].error.code).toBe('role_not_allowed');
    expect((await setCode(world, world.merchant.token, '1357')).status).toBe(403);
    expect((await setCode(world, world.otherOwner, '1357')).status).toBe(401);
    // The same request again (same key) is its stored 204 and changes nothing.
    expect((await setCode(world, world.manager, MANAGER_CODE, { 'Idempotency-Key': 'code-1' })).status).toBe(204);

    const entries = await auditEntries(world, '?action=staff.manager_code_set');
    expect(entries.map((entry) => [entry.actor.staff_id, entry.after])).toEqual([
      [world.ownerId, { status: 'set' }],
      [world.managerId, { status: 'set' }],
    ]);
    // The staff member's code worked for nobody else: staff's refused attempt left no entry.
    expect(entries.some((entry) => entry.actor.staff_id === world.staffId)).toBe(false);
  });

  it("refuses a code another staff member holds without saying whose; one's own again is fine", async () => {
    const world = await codeWorld();
    expect((await setCode(world, world.manager, MANAGER_CODE)).status).toBe(204);
    const taken = await setCode(world, world.owner, MANAGER_CODE);
    expect(taken.status).toBe(422);
    expect(taken.body).toEqual([{ error: expect.objectContaining({ object: 'manager_code', property: 'code', code: 'taken' }) }]);
    expect(taken.text).not.toContain(String(world.managerId));
    expect(taken.text).not.toMatch(/manager\b(?! code)/i);
    expect((await setCode(world, world.manager, MANAGER_CODE)).status).toBe(204);
    expect(await auditEntries(world, '?action=staff.manager_code_set')).toHaveLength(1);
  });

  it('takes 4 to 8 digits only', async () => {
    const world = await codeWorld();
    for (const code of ['123', '123456789', '12a4', ' 1234', '']) {
      const refused = await setCode(world, world.manager, code);
      expect(refused.status, code).toBe(422);
      expect(refused.body[0].error).toMatchObject({ object: 'manager_code', property: 'code' });
    }
    expect(await auditEntries(world)).toEqual([]);
  });
});

describe('a money action approved with a manager code records its approver', () => {
  it("a refund with the manager's own code names the manager on the order and in the refund's audit entry", async () => {
    const world = await codeWorld();
    expect((await setCode(world, world.manager, MANAGER_CODE)).status).toBe(204);
    const uuid = await completedOrder(world);
    const refunded = await refund(world, uuid, MANAGER_CODE);
    expect(refunded.status, refunded.text).toBe(200);
    expect((await getOrder(uuid))?.state).toBe('refunded');
    const stored = (await getOrder(uuid)) as { refund_approved_by_staff_id?: number | null } | undefined;
    expect(stored?.refund_approved_by_staff_id).toBe(world.managerId);

    const [entry] = await auditEntries(world, '?action=order.refunded');
    expect(entry).toMatchObject({
      actor: { kind: 'shared_login', staff_id: null },
      object: { type: 'order', id: uuid },
      approved_by_staff_id: world.managerId,
    });
    // The manager's filter lists what they did and what they approved.
    expect((await auditEntries(world, `?staff_id=${world.managerId}`)).map((listed) => listed.action)).toEqual(['order.refunded', 'staff.manager_code_set']);
  });

  it("the merchant's shared code still refunds (approved by nobody named); a manager's own token needs no code", async () => {
    const world = await codeWorld();
    expect((await setCode(world, world.manager, MANAGER_CODE)).status).toBe(204);
    const first = await completedOrder(world);
    expect((await refund(world, first, SHARED_CODE)).status).toBe(200);
    const second = await completedOrder(world);
    const byManager = await refund(world, second, null, world.manager);
    expect(byManager.status, byManager.text).toBe(200);
    const entries = await auditEntries(world, '?action=order.refunded');
    expect(entries.map((entry) => [entry.object.id, entry.actor.kind, entry.approved_by_staff_id])).toEqual([
      [second, 'staff', world.managerId],
      [first, 'shared_login', null],
    ]);
  });

  it('once a staff member has a code, a merchant without a shared code needs one for refunds', async () => {
    const world = await codeWorld({ sharedCode: null });
    const before = await completedOrder(world);
    expect((await setCode(world, world.owner, OWNER_CODE)).status).toBe(204);
    const refused = await refund(world, before, null);
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual([{ error: expect.objectContaining({ object: 'refund', property: 'manager_confirmation' }) }]);
    expect((await getOrder(before))?.state).toBe('completed');
    expect((await refund(world, before, OWNER_CODE)).status).toBe(200);
  });

  it('wrong codes lock refunds out as before, then even a manager code is 429', async () => {
    const world = await codeWorld();
    expect((await setCode(world, world.manager, MANAGER_CODE)).status).toBe(204);
    const uuid = await completedOrder(world);
    for (let attempt = 0; attempt < MANAGER_CODE_ORDER_FAILURES.limit; attempt++) {
      const wrong = await refund(world, uuid, String(40000000 + attempt));
      expect(wrong.status).toBe(422);
    }
    const locked = await refund(world, uuid, MANAGER_CODE);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(locked.body[0].error.code).toBe('manager_confirmation_locked');
    expect((await getOrder(uuid))?.state).toBe('completed');
    expect(await auditEntries(world, '?action=order.refunded')).toEqual([]);
  });

  it('a detached refund, a credit grant and a gift card value removal with the code name their approver', async () => {
    const world = await codeWorld();
    expect((await setCode(world, world.manager, MANAGER_CODE)).status).toBe(204);
    await completedOrder(world);
    const detached = await call('POST', '/v15/detached_refunds', {
      token: world.merchant.token,
      body: {
        detached_refund: {
          credit_amount: 100,
          location_id: world.location.location_id,
          payment_token_data: world.user.user.payment_token_data,
          manager_confirmation: MANAGER_CODE,
        },
      },
    });
    expect(detached.status, detached.text).toBe(200);
    const granted = await call('POST', '/v15/merchant_funded_credits', {
      token: world.merchant.token,
      body: { merchant_funded_credit: { email: world.user.email, value_amount: 200, manager_confirmation: MANAGER_CODE } },
    });
    expect(granted.status, granted.text).toBe(204);
    const loaded = await loadGiftCard(rawApi, world.merchant.token, world.merchantId, {
      payment_token_data: world.user.user.payment_token_data,
      value_amount: 1500,
    });
    expect(loaded.status, loaded.text).toBe(200);
    const removed = await call('POST', `/v15/merchants/${world.merchantId}/gift_card_value_removals`, {
      token: world.merchant.token,
      body: { gift_card_value_removal: { payment_token_data: world.user.user.payment_token_data, value_amount: 300, manager_confirmation: MANAGER_CODE } },
    });
    expect(removed.status, removed.text).toBe(200);
    // Without a code a grant still goes through, approved by nobody named (none is required); a wrong one is refused.
    const unnamed = await call('POST', '/v15/merchant_funded_credits', {
      token: world.merchant.token,
      body: { merchant_funded_credit: { email: world.user.email, value_amount: 50 } },
    });
    expect(unnamed.status).toBe(204);
    const wrong = await call('POST', '/v15/merchant_funded_credits', {
      token: world.merchant.token,
      body: { merchant_funded_credit: { email: world.user.email, value_amount: 50, manager_confirmation: '99999999' } },
    });
    expect(wrong.status).toBe(422);

    const entries = await auditEntries(world);
    const approvals = entries.filter((entry) => entry.action !== 'staff.manager_code_set').map((entry) => [entry.action, entry.approved_by_staff_id]);
    expect(approvals).toEqual([
      ['credit.granted', null],
      ['gift_card.value_removed', world.managerId],
      ['credit.granted', world.managerId],
      ['detached_refund.created', world.managerId],
    ]);
  });
});

describe('a code is never answered', () => {
  it('appears in no response of this file', () => {
    expect(answers.length).toBeGreaterThan(25);
    for (const answer of answers) {
      const text = `${answer.text}\n${JSON.stringify([...answer.headers])}`;
      expect(text).not.toContain(MANAGER_CODE);
      expect(text).not.toContain(`"${OWNER_CODE}"`);
    }
  });
});
