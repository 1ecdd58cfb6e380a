import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, table } from '#shared/db/client.ts';
import { and, attributeMissing, equals, itemExists, or } from '#shared/db/conditions.ts';
import { keys } from '#shared/db/keys.ts';
import { nextId } from '#shared/db/ids.ts';
import { LabelledItems, transactWrite, type TransactItem } from '#shared/db/transactions.ts';
import { hashPassword } from '#shared/auth/secrets.ts';
import { issuePaymentToken } from '#shared/domain/cards/payment-tokens.ts';
import { revokeAccountTokens } from '#shared/auth/tokens.ts';
import { conflict, unprocessable, unauthorized } from '#shared/errors.ts';
import { isoSeconds } from '#shared/time.ts';
import type { Gender, NewUser } from '#shared/schemas/users.ts';
import { MAX_CUSTOM_ATTRIBUTES } from '#shared/schemas/vocabularies.ts';
import { userTotalsOf, type UserTotals } from '#shared/domain/identity/user-totals.ts';
import { phoneIndexChanges } from '#shared/domain/identity/phones.ts';
import { claimHeldGiftItems, commitWithHeldGiftClaim, readHeldGifts } from '#shared/domain/money/held-gifts.ts';
import {
  Login,
  loginIsUsers,
  passwordFields,
  User,
  type CustomAttributes,
  type LoginAttributes,
  type UserAttributes,
  type UserItem,
} from '#shared/domain/identity/entities.ts';

// The user item is defined in entities.ts (cards/payment-tokens.ts, which this module imports, reads and changes it too).
export { User, type UserItem };

/** A profile update's guard: nobody updated the profile since it was read at `seen` (never updated: no version). */
const profileVersionIs = (seen: number) => or(attributeMissing('profile_version'), equals('profile_version', seen));

const isMap = (scope: CustomAttributes[string]): scope is ReadonlyMap<string, string> => scope instanceof Map;

/** One app's custom attributes, as a plain object whichever way the item holds them. */
function customAttributesOf(user: Pick<UserAttributes, 'custom_attributes'>, appId: number): Record<string, string> {
  const scope = user.custom_attributes[String(appId)];
  if (scope === undefined) return {};
  return isMap(scope) ? Object.fromEntries(scope) : { ...scope };
}

const EMAIL_TAKEN = () => unprocessable('user', 'email', 'Email already associated with another app', 'taken');

/**
 * What a new account is made of: the sign-up fields, where the password may be absent (POST /v15/apps/users:
 * the account cannot log in until a password is set through the reset flow) and custom attributes stored
 * under the creating app's scope.
 */
export type UserInput = Omit<NewUser, 'password'> & { password?: string; custom_attributes?: Record<string, string> };

/** `alsoWrite`: items written in the same transaction, given the new user's id (a token issued with the account, POST /v15/apps/users). */
export async function createUser(appId: number, input: UserInput, alsoWrite: (userId: number) => TransactItem[] = () => []): Promise<UserItem> {
  const [userId, paymentTokenId, passwordHash, held] = await Promise.all([
    nextId('user'),
    nextId('payment_token'),
    input.password === undefined ? Promise.resolve(undefined) : hashPassword(input.password),
    readHeldGifts(input.email),
  ]);
  const now = isoSeconds();
  const paymentToken = issuePaymentToken(userId, paymentTokenId, now);
  const user = User.at(userId).item({
    user_id: userId,
    email: input.email.trim(),
    first_name: input.first_name,
    last_name: input.last_name,
    born_at: input.born_at ?? null,
    gender: input.gender ?? null,
    custom_gender: null,
    phone: input.phone ?? null,
    custom_attributes: input.custom_attributes && Object.keys(input.custom_attributes).length > 0 ? { [String(appId)]: { ...input.custom_attributes } } : {},
    terms_accepted_at: now,
    created_app_id: appId,
    payment_token_id: paymentTokenId,
    payment_token_data: paymentToken.token.data,
    payment_token_expires_at: paymentToken.token.expiresAt,
    promoted_card_id: null,
    global_credit_amount: 0,
    created_at: now,
    updated_at: now,
  });
  // Gifts bought for this email before it had an account are claimed in the transaction that writes its login.
  const outcome = await commitWithHeldGiftClaim(
    user.email,
    userId,
    now,
    (batch) => {
      batch.add('login', Login.at(user.email).putNew({ subject: 'user', user_id: userId, ...passwordFields(passwordHash), created_at: now }));
      batch.add('user', User.at(userId).putNew({ ...user, custom_attributes: storableCustomAttributes(user.custom_attributes) }));
      batch.add('payment_token', paymentToken.qrItem);
      batch.add('phone', ...phoneIndexChanges(userId, null, user.phone));
      batch.add('also', ...alsoWrite(userId));
    },
    Promise.resolve(held),
  );
  if (!outcome.committed) {
    if (outcome.failed.has('login')) throw EMAIL_TAKEN();
    throw new Error(`user creation cancelled: ${outcome.reasons.join(',')}`);
  }
  return user;
}

export async function getUser(userId: number): Promise<UserItem | undefined> {
  return User.at(userId).get({ consistent: false });
}

/** The user a valid token names; a token whose user is gone is as good as no token. */
export async function getUserOrUnauthorized(userId: number): Promise<UserItem> {
  const user = await getUser(userId);
  if (!user) throw unauthorized('The access token is invalid.');
  return user;
}

/**
 * The user and their totals (orders, merchants visited, savings: user-totals.ts), as the User resource shows
 * them: ONE Query of the two items (the totals' sort key sorts right after the profile's), the same single
 * round trip as a GetItem of the profile, and one read unit for both while they fit 4 KB together (a
 * BatchGetItem would round each item up on its own). No totals item (no order yet): zeros. A token whose
 * user is gone: 401, as getUserOrUnauthorized.
 */
export async function getUserWithTotals(userId: number): Promise<{ user: UserItem; totals: UserTotals }> {
  const { pk, skFrom, skTo } = keys.userWithTotals(userId);
  const result = await db().send(
    new QueryCommand({
      TableName: table(),
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': pk, ':from': skFrom, ':to': skTo },
    }),
  );
  const items = result.Items ?? [];
  const user = User.from(items.find((item) => item.sk === skFrom));
  if (!user) throw unauthorized('The access token is invalid.');
  return { user, totals: userTotalsOf(items.find((item) => item.sk === skTo)) };
}

export interface UserChanges {
  email?: string;
  first_name?: string;
  last_name?: string;
  born_at?: string | null;
  gender?: Gender | null;
  custom_gender?: string | null;
  phone?: string | null;
  password?: string;
  /** Merged into the token's app's attributes; a null value removes that key. */
  custom_attributes?: Record<string, string | null>;
}

/**
 * Applies changes in one transaction: a new email moves the login item (guarded so two users never
 * share an email), a new password rewrites its hash, everything else updates the user item.
 * A new password then revokes every other token of the account: only `sessionTokenHash` (the
 * token the change was made with) survives, so a stolen token dies with the victim's password change.
 */
export async function updateUser(user: UserItem, appId: number, changes: UserChanges, sessionTokenHash?: string): Promise<UserItem> {
  const now = isoSeconds();
  const updated: UserItem = { ...user, updated_at: now };
  if (changes.first_name !== undefined) updated.first_name = changes.first_name;
  if (changes.last_name !== undefined) updated.last_name = changes.last_name;
  if (changes.born_at !== undefined) updated.born_at = changes.born_at;
  if (changes.phone !== undefined) updated.phone = changes.phone;
  if (changes.gender !== undefined) {
    updated.gender = changes.gender;
    if (changes.gender !== 'custom') updated.custom_gender = null;
  }
  if (changes.custom_gender !== undefined) {
    if (changes.custom_gender !== null && updated.gender !== 'custom') {
      throw unprocessable('user', 'custom_gender', "Custom gender can only be set when gender is 'custom'", 'invalid');
    }
    updated.custom_gender = changes.custom_gender;
  }
  if (changes.custom_attributes !== undefined) {
    const scope = customAttributesOf(user, appId);
    for (const [name, value] of Object.entries(changes.custom_attributes)) {
      if (value === null) delete scope[name];
      else scope[name] = value;
    }
    if (Object.keys(scope).length > MAX_CUSTOM_ATTRIBUTES) {
      throw unprocessable('user', 'custom_attributes', `Custom attributes are limited to ${MAX_CUSTOM_ATTRIBUTES} keys per app`, 'too_many');
    }
    updated.custom_attributes = { ...user.custom_attributes, [String(appId)]: scope };
  }
  const emailChanged = changes.email !== undefined && changes.email.trim().toLowerCase() !== user.email.toLowerCase();
  if (changes.email !== undefined) updated.email = changes.email.trim();
  const passwordHash = changes.password !== undefined ? await hashPassword(changes.password) : undefined;

  // Only the profile fields are written: other areas change the same item (cards, the payment token,
  // the payment preference) and a whole-item Put would undo their writes. profile_version guards the read-merge-write
  // of the fields here (custom attributes, email) against a concurrent profile update.
  updated.profile_version = (user.profile_version ?? 0) + 1;
  const batch = new LabelledItems();
  batch.add(
    'user',
    User.at(user.user_id).update(
      {
        set: {
          email: updated.email,
          first_name: updated.first_name,
          last_name: updated.last_name,
          born_at: updated.born_at,
          gender: updated.gender,
          custom_gender: updated.custom_gender,
          phone: updated.phone,
          custom_attributes: storableCustomAttributes(updated.custom_attributes),
          updated_at: updated.updated_at,
          profile_version: updated.profile_version,
        },
      },
      and(itemExists, profileVersionIs(user.profile_version ?? 0)),
    ),
  );
  // The phone index moves with the phone, guarded by the profile version above (the phone read is the one replaced).
  batch.add('phone', ...phoneIndexChanges(user.user_id, user.phone, updated.phone));
  if (emailChanged) {
    batch.add('old_login', Login.at(user.email).delete(loginIsUsers(user.user_id)));
    batch.add(
      'new_login',
      Login.at(updated.email).putNew({
        ...(await currentLogin(user.email)),
        subject: 'user',
        user_id: user.user_id,
        ...passwordFields(passwordHash),
        created_at: now,
      }),
    );
    // The new email's account is this one now: gifts held for it are claimed with its login (held-gifts.ts).
    batch.add('held_gifts', ...claimHeldGiftItems(await readHeldGifts(updated.email), user.user_id, now));
  } else if (passwordHash !== undefined) {
    batch.add('login', Login.at(user.email).update({ set: passwordFields(passwordHash) }, loginIsUsers(user.user_id)));
  }
  const outcome = await transactWrite(() => batch.items);
  if (!outcome.committed) {
    const failed = batch.failedLabels(outcome.reasons);
    if (failed.has('new_login')) throw EMAIL_TAKEN();
    if (failed.has('held_gifts')) throw conflict('A gift for the new email arrived while this update was made; retry it.', 1, 'user', 'in_progress');
    throw unprocessable('user', 'base', 'The user changed while this update was made; retry it', 'conflict');
  }
  if (passwordHash !== undefined) await revokeAccountTokens({ subject: 'user', id: user.user_id }, sessionTokenHash ? [sessionTokenHash] : []);
  return updated;
}

/**
 * Custom attributes as the DynamoDB marshaller must see them: each app's keys in a Map. A plain object with a
 * key named `constructor` (a string there) is not recognised as a map by the marshaller and failed the write
 * with a 500; a Map is marshalled by its entries, whatever their names. Read back, it is a plain object again.
 */
function storableCustomAttributes(attributes: CustomAttributes): Record<string, ReadonlyMap<string, string>> {
  return Object.fromEntries(Object.entries(attributes).map(([appId, scope]) => [appId, isMap(scope) ? scope : new Map(Object.entries(scope))]));
}

/** The login item's attributes as stored (password hash and its change time move with an email change). */
async function currentLogin(email: string): Promise<Partial<LoginAttributes>> {
  const { pk: _pk, sk: _sk, entity: _entity, ...rest } = (await Login.at(email).get({ consistent: true })) ?? {};
  return rest;
}

/**
 * A birthday (stored as its date, `YYYY-MM-DD`) as the SDKs parse it: the API's datetime form at midday UTC.
 * The C# SDK's User reads only `yyyy-MM-dd HH:mm:ss` or `yyyy-MM-ddTHH:mm:sszzz`, iOS and Android an ISO 8601
 * datetime (issue 34.13); a bare date reads back as null. Midday, not midnight: a client that shows the
 * instant in its own zone keeps the same calendar day anywhere from UTC-11 to UTC+11 (midnight UTC would
 * be the day before everywhere in the Americas).
 */
export function birthdayDateTime(bornOn: string | null): string | null {
  return bornOn === null ? null : `${bornOn}T12:00:00+00:00`;
}

/**
 * The contract's user resource. `custom_attributes` holds the requesting app's scope only;
 * v14 (create) omits app_id, debit_card_only, phone and user_app_id. `totals` from getUserWithTotals
 * (`NO_TOTALS` for a user just created).
 */
export function serializeUser(user: UserItem, totals: UserTotals, appId: number, version: 'v14' | 'v15') {
  const body = {
    id: user.user_id,
    born_at: birthdayDateTime(user.born_at),
    cause_id: null,
    connected_to_facebook: false,
    custom_attributes: customAttributesOf(user, appId),
    email: user.email,
    first_name: user.first_name,
    last_name: user.last_name,
    gender: user.gender,
    global_credit_amount: user.global_credit_amount,
    merchants_visited_count: totals.merchants_visited_count,
    orders_count: totals.orders_count,
    terms_accepted_at: user.terms_accepted_at,
    total_savings_amount: totals.total_savings_amount,
  };
  if (version === 'v14') return { user: body };
  return {
    user: {
      ...body,
      app_id: appId,
      custom_gender: user.custom_gender,
      debit_card_only: false,
      phone: user.phone,
      user_app_id: user.user_id,
    },
  };
}
