import { randomInt } from 'node:crypto';
import { issueTokenWithExpiry } from '#shared/auth/tokens.ts';
import { MERCHANT_PERMISSIONS, type StaffRole } from '#shared/routes.ts';

/**
 * The "staff" helper's test/support/staff.ts `staffToken`, copied until that file is merged (the lead dedupes): a staff
 * member's merchant token, issued directly as the login issues it.
 */
export async function staffToken(appId: number, merchantId: number, role: StaffRole, staffId: number): Promise<string> {
  const issued = await issueTokenWithExpiry({ subject: 'merchant', merchantId, appId, permissions: MERCHANT_PERMISSIONS, staff: { staffId, role } });
  return issued!.token;
}

/** A staff id no other test of the run takes (random, below 2^31 as the C# SDK reads ids: no stored staff member is needed). */
export function newStaffId(): number {
  return randomInt(1, 2 ** 31 - 1);
}
