/**
 * Staff roles at a merchant (docs/merchant-api.md says what each may do). A route of the management API names
 * the roles that may call it in the route table (`Route.roles`); the request pipeline refuses any other with 403
 * before the handler runs (shared/http/admission.ts). The roles are listed in shared/routes.ts, which imports nothing.
 */

import { STAFF_ROLES, type StaffRole } from '#shared/routes.ts';

export { STAFF_ROLES, type StaffRole };

/** The roles with at least the rights of `role`: `atLeast('manager')` is owner and manager. */
export function atLeast(role: StaffRole): readonly StaffRole[] {
  return STAFF_ROLES.slice(0, STAFF_ROLES.indexOf(role) + 1);
}

/** A staff member acting through their merchant token: who approved or changed something, for the audit log. */
export interface StaffActor {
  merchantId: number;
  staffId: number;
  role: StaffRole;
}
