/**
 * A merchant's staff (docs/merchant-api.md "Staff"; docs/data-model.md "Staff"): invite, list, change a role or a
 * name, remove. Each change is one transaction with everything it guards: the staff member, their login (the email's
 * `Login` item, which names them by staff_id and carries their role for the token), the merchant's roster (how many
 * staff and owners: the staff limit and the last owner are conditions on it), the invite mail, the audit log's items
 * and the Idempotency-Key's stored answer. A role change or a removal then revokes the person's tokens at once.
 */
import type { StaffActor } from '#shared/auth/roles.ts';
import { revokeAccountTokens } from '#shared/auth/tokens.ts';
import { and, itemExists, itemIsNew, or } from '#shared/db/conditions.ts';
import { nextId } from '#shared/db/ids.ts';
import { pageInKeyOrder, readItems, type KeyOrderPosition } from '#shared/db/reads.ts';
import { keys } from '#shared/db/keys.ts';
import { LabelledItems, lostRace, transactWrite, type TransactItem, type TransactOutcome } from '#shared/db/transactions.ts';
import { Login, loginIsStaffMembers } from '#shared/domain/identity/entities.ts';
import { Merchant } from '#shared/domain/merchants/merchants.ts';
import { recordStaffChange, type StaffChangeRecord } from '#shared/domain/staff/audit.ts';
import type { AuditOrigin } from '#shared/domain/audit/audit-log.ts';
import { managerCodeRemovalItems, managerCodeRemovalItemsOf, StaffManagerCode } from '#shared/domain/audit/manager-codes.ts';
import {
  MAX_STAFF_PER_MERCHANT,
  StaffMember,
  StaffRoster,
  anotherOwnerRemains,
  memberHasRole,
  rosterHasNoOwner,
  rosterHasRoom,
  type StaffMemberAttributes,
  type StaffMemberItem,
} from '#shared/domain/staff/entities.ts';
import { inviteMailItem } from '#shared/domain/staff/invites.ts';
import { conflict, merchantHasNo, unprocessable } from '#shared/errors.ts';
import type { StaffRole } from '#shared/routes.ts';
import type { StaffChange, StaffInvite } from '#shared/schemas/staff.ts';
import { isoSeconds } from '#shared/time.ts';

/** Staff members on one page of the list (a merchant has at most MAX_STAFF_PER_MERCHANT). */
export const STAFF_PAGE_SIZE = 50;

export const STAFF_NOT_FOUND = () => merchantHasNo('staff', 'staff member');
const EMAIL_TAKEN = () =>
  // The same answer registration gives for an email that signs in already (docs/security.md, "Staff invites").
  unprocessable('staff', 'email', 'This email address already signs in to an account; invite another address.', 'taken');
const TOO_MANY_STAFF = () =>
  unprocessable('staff', 'base', `A merchant has at most ${MAX_STAFF_PER_MERCHANT} staff members; remove one before inviting another.`, 'too_many');
const LAST_OWNER = () => unprocessable('staff', 'role', 'This is the last owner of the merchant: make someone else an owner first.', 'last_owner');
const OWNER_EXISTS = () => unprocessable('staff', 'role', 'This merchant has an owner already: its owners invite the others.', 'taken');
const NO_MERCHANT = () => unprocessable('staff', 'merchant_id', 'No merchant has this id.', 'not_found');
const STAFF_CHANGED = () => conflict('The staff member changed while this change was made; send it again.', 1, 'staff', 'staff_changed');

const isOwner = (role: StaffRole) => (role === 'owner' ? 1 : 0);

/** The staff member as the API answers it: no password, hash or code, ever. */
export function staffView(member: StaffMemberAttributes) {
  return {
    staff: {
      id: member.staff_id,
      merchant_id: member.merchant_id,
      email: member.email,
      name: member.name,
      role: member.role,
      status: member.status,
      invited_by: member.invited_by,
      created_at: member.created_at,
      updated_at: member.updated_at,
    },
  };
}

/** The stored fields of a staff member (the item without its key and tag). */
function attributesOf(item: StaffMemberItem): StaffMemberAttributes {
  const { pk: _pk, sk: _sk, entity: _entity, ...attributes } = item;
  return attributes;
}

/** Whether a paging cursor names a staff member's position. */
export const isStaffCursor = keys.isStaffSortKey;

/**
 * One page of a merchant's staff by id. `cursor` (from a previous page's Link) resumes after that member; without
 * it, `page` skips whole pages (at most MAX_STAFF_PER_MERCHANT items are ever read).
 */
export async function listStaff(merchantId: number, position: KeyOrderPosition, pageSize = STAFF_PAGE_SIZE): Promise<StaffMemberItem[]> {
  // The roster's sort key sorts before every member's, so "after a member" never reaches it.
  return pageInKeyOrder(keys.merchantStaff(merchantId), position, pageSize, (item) => StaffMember.from(item), {
    readAtMost: MAX_STAFF_PER_MERCHANT + pageSize,
  });
}

/** One staff member of the merchant (404 for an id of no staff member of this merchant, whoever's it is). */
export async function getStaffMember(merchantId: number, staffId: number): Promise<StaffMemberItem> {
  const member = await StaffMember.at(merchantId, staffId).get({ consistent: true });
  if (!member) throw STAFF_NOT_FOUND();
  return member;
}

/** Commits a staff change with its audit items and stored answer; refusals by the guard that failed. */
async function commitChange(
  items: LabelledItems,
  record: StaffChangeRecord,
  stored: TransactItem | undefined,
  refusals: Record<string, () => Error>,
): Promise<void> {
  items.add('audit', ...recordStaffChange(record));
  if (stored) items.add('idempotency', stored);
  const outcome: TransactOutcome = await transactWrite(() => items.items);
  if (outcome.committed) return;
  const failed = items.failedLabels(outcome.reasons);
  for (const [label, refusal] of Object.entries(refusals)) if (failed.has(label)) throw refusal();
  if (lostRace(outcome)) throw STAFF_CHANGED();
  throw new Error(`staff change cancelled: ${outcome.reasons.join(',')}`);
}

export interface InviteInput {
  merchantId: number;
  /** Who invites; null for the operators' first owner. */
  actor: StaffActor | null;
  /** Where the invite came from (the audit log); absent for the operators' CLI. */
  origin?: AuditOrigin;
  invite: StaffInvite;
  /** The API's base URL, for the set-password link of the invite mail. */
  baseUrl: string;
  /** The Idempotency-Key's stored answer, for the same transaction. */
  storeResponse?: (member: StaffMemberAttributes) => TransactItem | undefined;
}

/**
 * Invites a staff member: their staff item, their login without a password (it cannot sign in until they set one
 * through the mailed link), the roster's count, the invite mail, in one transaction. An email that signs in already
 * (a user's, another staff member's or a merchant's login) is 422 `taken`, as registration answers it; the same
 * email invited twice at once makes one staff member (the login's key is the email).
 */
export async function inviteStaff(input: InviteInput, options: { firstOwner?: boolean } = {}): Promise<StaffMemberAttributes> {
  const email = input.invite.email.trim().toLowerCase();
  const [staffId, personId] = await Promise.all([nextId('staff'), nextId('user')]);
  const now = isoSeconds();
  const member: StaffMemberAttributes = {
    staff_id: staffId,
    merchant_id: input.merchantId,
    email,
    name: input.invite.name,
    role: input.invite.role,
    status: 'invited',
    invited_by: input.actor?.staffId ?? null,
    person_id: personId,
    created_at: now,
    updated_at: now,
  };
  const items = new LabelledItems();
  items.add(
    'login',
    Login.at(email).putNew({ subject: 'merchant', merchant_id: input.merchantId, user_id: personId, staff_id: staffId, role: member.role, created_at: now }),
  );
  items.add('member', StaffMember.at(input.merchantId, staffId).putNew(member));
  items.add(
    'roster',
    StaffRoster.at(input.merchantId).update(
      { add: { staff_count: 1, owner_count: isOwner(member.role) }, set: { merchant_id: input.merchantId }, creates: true },
      options.firstOwner ? and<'staff_count' | 'owner_count'>(rosterHasRoom, rosterHasNoOwner) : rosterHasRoom,
    ),
  );
  // The management routes' admission proves the merchant exists; the operators' CLI names it by hand.
  if (options.firstOwner) items.add('merchant', Merchant.at(input.merchantId).conditionCheck(itemExists));
  items.add('mail', inviteMailItem(email, staffId, input.baseUrl, now));
  const action = options.firstOwner ? 'staff.first_owner_added' : 'staff.invited';
  await commitChange(
    items,
    { action, merchantId: input.merchantId, actor: input.actor, origin: input.origin, staffId, before: null, after: member, at: now },
    input.storeResponse?.(member),
    { login: EMAIL_TAKEN, merchant: NO_MERCHANT, roster: options.firstOwner ? OWNER_EXISTS : TOO_MANY_STAFF },
  );
  return member;
}

/**
 * A merchant's first owner, by the operators (`npm run admin -- staff-add-owner`): the only way an owner appears
 * without another owner inviting them, refused once the merchant has one.
 */
export function addFirstOwner(input: { merchantId: number; email: string; name: string; baseUrl: string }): Promise<StaffMemberAttributes> {
  return inviteStaff(
    { merchantId: input.merchantId, actor: null, invite: { email: input.email, name: input.name, role: 'owner' }, baseUrl: input.baseUrl },
    { firstOwner: true },
  );
}

/**
 * Changes a staff member's name or role. A role change also changes their login's role and the roster's owner
 * count (an owner stops being one only while another remains: 422 `last_owner`), then revokes their tokens, which
 * carry the old role. A concurrent change of the same member is 409 `staff_changed` with Retry-After.
 */
export async function changeStaffMember(
  actor: StaffActor,
  staffId: number,
  change: StaffChange,
  storeResponse: (member: StaffMemberAttributes) => TransactItem | undefined,
  origin?: AuditOrigin,
): Promise<StaffMemberAttributes> {
  const current = attributesOf(await getStaffMember(actor.merchantId, staffId));
  const now = isoSeconds();
  const updated: StaffMemberAttributes = { ...current, name: change.name ?? current.name, role: change.role ?? current.role, updated_at: now };
  const roleChanges = updated.role !== current.role;
  const items = new LabelledItems();
  items.add(
    'member',
    StaffMember.at(actor.merchantId, staffId).update({ set: { name: updated.name, role: updated.role, updated_at: now } }, memberHasRole(current.role)),
  );
  if (roleChanges) {
    items.add('login', Login.at(current.email).update({ set: { role: updated.role } }, loginIsStaffMembers(staffId)));
    const owners = isOwner(updated.role) - isOwner(current.role);
    if (owners !== 0)
      items.add('roster', StaffRoster.at(actor.merchantId).update({ add: { owner_count: owners } }, owners < 0 ? anotherOwnerRemains : itemExists));
    // A staff member approves nothing: a code they set as a manager or owner stops approving with the demotion.
    if (updated.role === 'staff') items.add('manager_code', ...(await managerCodeRemovalItems(actor.merchantId, staffId)));
  }
  await commitChange(
    items,
    { action: 'staff.updated', merchantId: actor.merchantId, actor, origin, staffId, before: current, after: updated, at: now },
    storeResponse(updated),
    { roster: LAST_OWNER, member: STAFF_CHANGED, login: STAFF_CHANGED, manager_code: STAFF_CHANGED },
  );
  if (roleChanges) await revokeAccountTokens({ subject: 'staff', id: staffId });
  return updated;
}

/**
 * Removes a staff member: their item, their login (a pending invite or reset link dies with it) and their place
 * in the roster (an owner only while another remains: 422 `last_owner`), then revokes their tokens.
 */
export async function removeStaffMember(
  actor: StaffActor,
  staffId: number,
  storeResponse: () => TransactItem | undefined,
  origin?: AuditOrigin,
): Promise<void> {
  // The member and their manager code's pointer are both keyed by the request: one BatchGetItem reads them.
  const [memberItem, codePointerItem] = await readItems([keys.staffMember(actor.merchantId, staffId), keys.staffManagerCode(actor.merchantId, staffId)], {
    consistent: true,
  });
  const member = StaffMember.from(memberItem);
  if (!member) throw STAFF_NOT_FOUND();
  const current = attributesOf(member);
  const now = isoSeconds();
  const items = new LabelledItems();
  items.add('member', StaffMember.at(actor.merchantId, staffId).delete(memberHasRole(current.role)));
  items.add('login', Login.at(current.email).delete(or<'pk' | 'staff_id'>(itemIsNew, loginIsStaffMembers(staffId))));
  items.add(
    'roster',
    StaffRoster.at(actor.merchantId).update(
      { add: { staff_count: -1, owner_count: -isOwner(current.role) } },
      current.role === 'owner' ? anotherOwnerRemains : itemExists,
    ),
  );
  // Their manager code stops approving with them.
  items.add('manager_code', ...managerCodeRemovalItemsOf(actor.merchantId, staffId, StaffManagerCode.from(codePointerItem)));
  await commitChange(
    items,
    { action: 'staff.removed', merchantId: actor.merchantId, actor, origin, staffId, before: current, after: null, at: now },
    storeResponse(),
    { roster: LAST_OWNER, member: STAFF_CHANGED, login: STAFF_CHANGED, manager_code: STAFF_CHANGED },
  );
  await revokeAccountTokens({ subject: 'staff', id: staffId });
}
