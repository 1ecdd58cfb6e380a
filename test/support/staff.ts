import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { expect, it } from 'vitest';
import { hashPassword } from '#shared/auth/secrets.ts';
import { issueTokenWithExpiry } from '#shared/auth/tokens.ts';
import { db } from '#shared/db/client.ts';
import { nextId } from '#shared/db/ids.ts';
import { Login, passwordFields } from '#shared/domain/identity/entities.ts';
import { inviteStaff } from '#shared/domain/staff/members.ts';
import { MERCHANT_PERMISSIONS, routes, type StaffRole } from '#shared/routes.ts';
import type { TestApi } from './api.ts';
import { merchantFixture } from './fixtures.ts';

/**
 * A staff member's merchant token of `merchantId` with `role`, issued directly (as the login issues it):
 * for management-route tests that need a token, not a stored staff member. Call after startTestApi().
 */
export async function staffToken(appId: number, merchantId: number, role: StaffRole, staffId?: number): Promise<string> {
  const id = staffId ?? (await nextId('staff'));
  const issued = await issueTokenWithExpiry({ subject: 'merchant', merchantId, appId, permissions: MERCHANT_PERMISSIONS, staff: { staffId: id, role } });
  return issued!.token;
}

/** A fresh staff email, unique per test run. */
export function staffEmail(label = 'staff'): string {
  return `${label}-${randomUUID()}@example.com`;
}

/**
 * A stored staff member of `merchantId` (made through the domain, as an invite makes them), with a token for
 * them; with `password`, their login signs in with it (as if they had set it through the invite's link).
 */
export async function staffFixture(appId: number, merchantId: number, role: StaffRole, options: { password?: string } = {}) {
  const email = staffEmail(role);
  const member = await inviteStaff({ merchantId, actor: null, invite: { email, name: `Test ${role}`, role }, baseUrl: 'http://127.0.0.1' });
  if (options.password !== undefined) {
    await db().send(new UpdateCommand(Login.at(email).update({ set: passwordFields(await hashPassword(options.password)) }).Update));
  }
  const token = await staffToken(appId, merchantId, role, member.staff_id);
  return { member, email, token, staffId: member.staff_id };
}

/** One staff token per role at `merchantId` (with their staff ids), and an owner's token of another merchant. */
export async function roleTokens(appId: number, merchantId: number) {
  const [ownerId, managerId, staffId] = await Promise.all([nextId('staff'), nextId('staff'), nextId('staff')]);
  const other = await merchantFixture(appId);
  return {
    ownerId,
    managerId,
    staffId,
    owner: await staffToken(appId, merchantId, 'owner', ownerId),
    manager: await staffToken(appId, merchantId, 'manager', managerId),
    staff: await staffToken(appId, merchantId, 'staff', staffId),
    otherOwner: await staffToken(appId, other.merchant.merchant_id, 'owner'),
  };
}

/** The fixture's merchant id and one token per role there ({@link roleTokens}). */
export async function merchantRoles(world: { app: { app_id: number }; merchant: { merchant: { merchant_id: number } } }) {
  const merchantId = world.merchant.merchant.merchant_id;
  return { merchantId, ...(await roleTokens(world.app.app_id, merchantId)) };
}

/** A management route's request on fresh data, as a role matrix sends it, and the status of its success. */
export interface RoleProbe {
  method: string;
  path: string;
  body?: unknown;
  success: number;
}

/**
 * One cell of a management route's role matrix (docs/merchant-api.md, the role table): a role allowed the route
 * gets its success; another role of the same merchant is 403 `role_not_allowed` and `unchanged` (what the owner
 * lists) reads the same after the attempt as before it.
 */
export async function expectRoleAnswer(
  api: TestApi,
  request: RoleProbe,
  role: { token: string; allowed: boolean; unchanged: () => Promise<string> },
): Promise<void> {
  const before = await role.unchanged();
  const response = await api.call(request.method, request.path, { token: role.token, body: request.body });
  if (role.allowed) {
    expect(response.status, response.text).toBe(request.success);
    return;
  }
  expect(response.status, response.text).toBe(403);
  expect(response.body).toEqual([{ error: expect.objectContaining({ object: 'access_token', property: 'role', code: 'role_not_allowed' }) }]);
  expect(await role.unchanged()).toBe(before);
}

/** What an area's role table tests read once its beforeAll has run: the tokens, and a probe of each route. */
export interface RoleTableArea {
  /** A request of the route on fresh data, and what the owner lists, to compare before and after a refused attempt. */
  probe: (handler: string) => Promise<RoleProbe & { unchanged: () => Promise<string> }>;
  tokens: Record<StaffRole, string>;
  otherOwnerToken: string;
  sharedLoginToken: string;
}

/**
 * The role table of the management routes whose handler starts with `prefix` (docs/merchant-api.md), as tests of the
 * describe block it is called in: the routes document `allowed`; every role on every route answers as
 * {@link expectRoleAnswer} expects; another merchant's owner is 401, the merchant's shared login 403, and neither
 * changes anything. `area` is read inside each test, after the file's beforeAll.
 */
export function roleTableTests(api: TestApi, noun: string, prefix: string, allowed: Record<string, readonly StaffRole[]>, area: () => RoleTableArea): void {
  const areaRoutes = routes.filter((route) => route.handler.startsWith(prefix));
  const roles: readonly StaffRole[] = ['owner', 'manager', 'staff'];

  it(`every ${noun} route is a management route with the documented roles`, () => {
    expect(Object.fromEntries(areaRoutes.map((route) => [route.handler, route.roles]))).toEqual(allowed);
  });

  it.each(areaRoutes.flatMap((route) => roles.map((role) => [route.handler, role] as const)))('%s as %s', async (handler, role) => {
    const { probe, tokens } = area();
    const request = await probe(handler);
    await expectRoleAnswer(api, request, { token: tokens[role], allowed: allowed[handler]!.includes(role), unchanged: request.unchanged });
  });

  it.each(areaRoutes.map((route) => [route.handler] as const))(
    "%s: another merchant's owner is 401, the shared login 403, and nothing changes",
    async (handler) => {
      const { probe, otherOwnerToken, sharedLoginToken } = area();
      const request = await probe(handler);
      const before = await request.unchanged();
      const other = await api.call(request.method, request.path, { token: otherOwnerToken, body: request.body });
      expect(other.status, other.text).toBe(401);
      expect(other.body).toEqual([{ error: expect.objectContaining({ object: 'access_token', property: 'merchant_token' }) }]);
      const shared = await api.call(request.method, request.path, { token: sharedLoginToken, body: request.body });
      expect(shared.status, shared.text).toBe(403);
      expect(shared.body).toEqual([{ error: expect.objectContaining({ code: 'staff_login_required' }) }]);
      expect(await request.unchanged()).toBe(before);
    },
  );
}
