/**
 * The audit log entries of staff changes (issue 38: every management change is logged with who, when, from where,
 * before and after), built for the change's own transaction by the audit log's `auditEntry`.
 */
import type { TransactItem } from '#shared/db/transactions.ts';
import type { StaffActor } from '#shared/auth/roles.ts';
import { auditEntry, OPERATOR_AUDIT, type AuditOrigin } from '#shared/domain/audit/audit-log.ts';
import type { StaffMemberAttributes } from '#shared/domain/staff/entities.ts';

export type StaffChangeAction = 'staff.invited' | 'staff.updated' | 'staff.removed' | 'staff.first_owner_added';

export interface StaffChangeRecord {
  action: StaffChangeAction;
  merchantId: number;
  /** Who made the change; null for the operators' CLI (a merchant's first owner). */
  actor: StaffActor | null;
  /** Where the request came from; absent for the operators' CLI. */
  origin?: AuditOrigin;
  staffId: number;
  before: StaffMemberAttributes | null;
  after: StaffMemberAttributes | null;
  /** ISO instant of the change. */
  at: string;
}

/** The audit log entry of a staff change, for the change's own transaction. A change of role is logged as one. */
export function recordStaffChange(change: StaffChangeRecord): TransactItem[] {
  const context = change.actor
    ? { actor: { kind: 'staff' as const, staffId: change.actor.staffId, role: change.actor.role }, origin: change.origin ?? OPERATOR_AUDIT.origin }
    : OPERATOR_AUDIT;
  const action = change.action === 'staff.updated' && change.before?.role !== change.after?.role ? 'staff.role_changed' : change.action;
  return [
    auditEntry(
      context,
      { merchantId: change.merchantId, action, object: { type: 'staff', id: change.staffId }, before: change.before, after: change.after },
      new Date(change.at),
    ),
  ];
}
