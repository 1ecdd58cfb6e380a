/**
 * The identity items several modules share: the login (every module that signs people in or changes how they
 * do: users, merchants, access tokens, password resets, permissions requests, the registration lookup), one
 * per username, lower-cased; and the user, whose profile is users.ts's while other areas change parts of it
 * (its cards, its payment token, its payment preference), so none of them needs users.ts to read it.
 */
import { defineEntity, type EntityItem } from '#shared/db/entity.ts';
import { equals } from '#shared/db/conditions.ts';
import { keys } from '#shared/db/keys.ts';
import type { Gender } from '#shared/schemas/users.ts';
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

/**
 * Custom attributes per app id. Read back, each app's scope is a plain object; written, a Map
 * (users.ts's storableCustomAttributes says why), so the stored attribute admits both.
 */
export type CustomAttributes = Record<string, Record<string, string> | ReadonlyMap<string, string>>;

export interface UserAttributes {
  user_id: number;
  email: string;
  first_name: string;
  last_name: string;
  born_at: string | null;
  gender: Gender | null;
  custom_gender: string | null;
  phone: string | null;
  /** Key-value data per app id: each app sees only its own (users.ts's customAttributesOf). */
  custom_attributes: CustomAttributes;
  terms_accepted_at: string | null;
  /** The app whose API key created the user. */
  created_app_id: number;
  /** The current payment token (cards/payment-tokens.ts): its id and the QR code data a POS scans. */
  payment_token_id: number;
  payment_token_data: string;
  /** Epoch seconds the payment token stops working; absent on users made before tokens expired. */
  payment_token_expires_at?: number;
  promoted_card_id: number | null;
  /** Bumped by every change of the user's cards (cards/credit-cards.ts); absent until the first. */
  cards_version?: number;
  /** How the user pays at a merchant (cards/payment-methods.ts); absent: the default. */
  payment_preference?: 'preload' | 'monthly_billing';
  preload_value_amount?: number | null;
  // orders_count, merchants_visited_count and total_savings_amount are not the profile's: they live in the
  // user's totals item (user-totals.ts), read beside it by users.ts's getUserWithTotals. Users made before
  // then hold zeros under those names here, which nothing reads.
  global_credit_amount: number;
  created_at: string;
  updated_at: string;
  /** Bumped by every profile update (users.ts's updateUser); absent until the first. */
  profile_version?: number;
}

export const User = defineEntity<UserAttributes>()({ entity: 'User', key: keys.user });
export type UserItem = EntityItem<typeof User>;

/** The user's payment token is still the one read (`data`): a rotation replaces only the token it saw. */
export const paymentTokenIs = (data: string) => equals('payment_token_data', data);

/** The login is still this staff member's (removed, or their email taken by no one else since). */
export const loginIsStaffMembers = (staffId: number) => equals('staff_id', staffId);
