import { randomInt } from 'node:crypto';
import { issueTokenWithExpiry } from '#shared/auth/tokens.ts';
import { MERCHANT_PERMISSIONS, type StaffRole } from '#shared/routes.ts';
import { merchantFixture } from '../support/fixtures.ts';

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

/** One staff token per role at `merchantId` (with their staff ids), and an owner's token of another merchant. */
export async function roleTokens(appId: number, merchantId: number) {
  const [ownerId, managerId, staffId] = [newStaffId(), newStaffId(), newStaffId()];
  const other = await merchantFixture(appId);
  return {
    ownerId,
    managerId,
    staffId,
    owner: await staffToken(appId, merchantId, 'owner', ownerId),
    manager: await staffToken(appId, merchantId, 'manager', managerId),
    staff: await staffToken(appId, merchantId, 'staff', staffId),
    otherOwner: await staffToken(appId, other.merchant.merchant_id, 'owner', newStaffId()),
  };
}
