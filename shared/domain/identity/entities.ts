/**
 * The login item, shared by every module that signs people in or changes how they do (users, merchants, access
 * tokens, password resets, permissions requests, the registration lookup): one per username, lower-cased.
 */
import { defineEntity, type EntityItem } from '#shared/db/entity.ts';
import { equals } from '#shared/db/conditions.ts';
import { keys } from '#shared/db/keys.ts';
import type { StaffRole } from '#shared/routes.ts';

export interface LoginAttributes {
  subject: 'user' | 'merchant';
  /** The user's id; a merchant login's person id (absent on merchant logins made before they had one). */
  user_id?: number;
  merchant_id?: number;
  /** A staff member's login (subject `merchant`): who they are at `merchant_id`, and their role (copied from the staff member, changed with it). */
  staff_id?: number;
  role?: StaffRole;
  /** Absent for a user created without a password (POST /v15/apps/users): no login until one is set. */
  password_hash?: string;
  /** When the password last changed (ISO): a reset link issued before then is dead. */
  password_changed_at?: string;
  created_at: string;
}

export const Login = defineEntity<LoginAttributes>()({ entity: 'Login', key: keys.login });
export type LoginItem = EntityItem<typeof Login>;

/** The login still belongs to this user (an email change moves it to another username). */
export const loginIsUsers = (userId: number) => equals('user_id', userId);

/** A new password's login fields: the hash and when it changed (a reset link issued before then is dead). */
export function passwordFields(passwordHash: string | undefined): Pick<LoginAttributes, 'password_hash' | 'password_changed_at'> {
  return passwordHash === undefined ? {} : { password_hash: passwordHash, password_changed_at: new Date().toISOString() };
}

/** The login is still this staff member's (removed, or their email taken by no one else since). */
export const loginIsStaffMembers = (staffId: number) => equals('staff_id', staffId);
