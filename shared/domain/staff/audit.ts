/**
 * The audit log's hook for staff changes (issue 38: every management change is logged with who, when, before and
 * after). The audit log is built beside this area; until it is merged the hook adds nothing to the change's
 * transaction. Wiring it is one body here: every staff change already passes its record and commits what this returns.
 */
import type { TransactItem } from '#shared/db/transactions.ts';
import type { StaffActor } from '#shared/auth/roles.ts';
import type { StaffMemberAttributes } from '#shared/domain/staff/entities.ts';

export type StaffChangeAction = 'staff.invited' | 'staff.updated' | 'staff.removed' | 'staff.first_owner_added';

export interface StaffChangeRecord {
  action: StaffChangeAction;
  merchantId: number;
  /** Who made the change; null for the operators' CLI (a merchant's first owner). */
  actor: StaffActor | null;
  staffId: number;
  before: StaffMemberAttributes | null;
  after: StaffMemberAttributes | null;
  /** ISO instant of the change. */
  at: string;
}

/** The audit log items of a staff change, for the change's own transaction (none until the audit log is wired). */
export function recordStaffChange(_change: StaffChangeRecord): TransactItem[] {
  return [];
}
