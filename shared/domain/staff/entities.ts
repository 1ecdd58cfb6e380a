/**
 * The stored staff of a merchant (docs/merchant-api.md; docs/data-model.md "Staff"): one item per staff member and
 * one roster item holding the counts the limits guard, all in the merchant's staff partition. A staff member signs
 * in through the `Login` item of their email (identity/entities.ts), which names them by `staff_id`.
 * Imports only the table's helpers: identity's password resets read it to activate an invited member.
 */
import { defineEntity, type EntityItem } from '#shared/db/entity.ts';
import { above, attributeMissing, counterAllows, equals, or } from '#shared/db/conditions.ts';
import { keys } from '#shared/db/keys.ts';
import type { StaffRole } from '#shared/routes.ts';
import type { StaffStatus } from '#shared/schemas/staff.ts';

/** Most staff members one merchant may have (invited and active together): a big restaurant group's head office and floor. */
export const MAX_STAFF_PER_MERCHANT = 200;

export interface StaffMemberAttributes {
  staff_id: number;
  merchant_id: number;
  /** Lower-cased; also the username of their login. */
  email: string;
  name: string;
  role: StaffRole;
  /** `invited` until they set their first password through the mailed link. */
  status: StaffStatus;
  /** The staff member who invited them; null for a first owner the operators added. */
  invited_by: number | null;
  /** Their person id: the `user_id` a login answers (from the users' id space, like the merchant's shared login). */
  person_id: number;
  created_at: string;
  updated_at: string;
}

export const StaffMember = defineEntity<StaffMemberAttributes>()({ entity: 'StaffMember', key: keys.staffMember });
export type StaffMemberItem = EntityItem<typeof StaffMember>;

export interface StaffRosterAttributes {
  merchant_id: number;
  staff_count: number;
  owner_count: number;
}

export const StaffRoster = defineEntity<StaffRosterAttributes>()({ entity: 'StaffRoster', key: keys.staffRoster });

/** One more staff member fits under MAX_STAFF_PER_MERCHANT (a merchant without a roster yet has none). */
export const rosterHasRoom = counterAllows('staff_count', MAX_STAFF_PER_MERCHANT, 1);

/** Another owner remains when one owner leaves or stops being an owner: two owners demoting each other leave one. */
export const anotherOwnerRemains = above('owner_count', 1);

/** The merchant has no owner yet: only then may the operators add one (the first owner). */
export const rosterHasNoOwner = or(attributeMissing('owner_count'), equals('owner_count', 0));

/** The staff member still has the role this change read (a concurrent change of them answers 409, to be retried). */
export const memberHasRole = (role: StaffRole) => equals('role', role);
