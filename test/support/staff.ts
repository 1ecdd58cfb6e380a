import { randomUUID } from 'node:crypto';
import { issueTokenWithExpiry } from '#shared/auth/tokens.ts';
import { nextId } from '#shared/db/ids.ts';
import { MERCHANT_PERMISSIONS, type StaffRole } from '#shared/routes.ts';

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
