/**
 * A location's order-ahead menu as its merchant edits it (docs/merchant-api.md, "Menus"): a draft, one stored item
 * beside the menu that apps never read, replaced whole and published whole. Publishing is ONE transaction (the menu
 * through `menuPublication`, the draft emptied, the audit entry, the Idempotency-Key's answer), so apps read either
 * the menu before or the menu after, never a half-edited one.
 *
 * The draft item also keeps the version every change raises, after a publish or a discard too: a client sends the
 * version it read, and a version is never reused, so an edit made on what someone else has since replaced,
 * published or discarded is refused (409 `menu_draft_changed`), never applied over it.
 */
import type { StaffActor } from '#shared/auth/roles.ts';
import { and, attributeExists, itemIsNew, versionIs } from '#shared/db/conditions.ts';
import { defineEntity, type EntityItem } from '#shared/db/entity.ts';
import { keys } from '#shared/db/keys.ts';
import { lostRace, transactWrite, type TransactItem } from '#shared/db/transactions.ts';
import { auditEntry, type AuditContext } from '#shared/domain/audit/audit-log.ts';
import { getMerchantLocation } from '#shared/domain/merchants/location-settings.ts';
import type { LocationItem } from '#shared/domain/merchants/locations.ts';
import { conflict, errorDetail, unprocessable, unprocessableAll } from '#shared/errors.ts';
import type { AuditAction } from '#shared/schemas/audit.ts';
import * as z from '#shared/schemas/zod.ts';
import { isoSeconds } from '#shared/time.ts';
import {
  checkMenuSize,
  MenuTooLarge,
  menuInputSchema,
  menuPublication,
  OrderAheadMenu,
  withUpsellIds,
  type MenuContent,
  type OrderAheadMenuItem,
} from './menu.ts';

export interface MenuDraftAttributes {
  location_id: number;
  merchant_id: number;
  /** Raised by every save, publish and discard; never reused. */
  version: number;
  /** The draft being edited; absent when there is none (none saved yet, or published, or discarded). */
  menu?: MenuContent;
  updated_at: string;
  updated_by_staff_id: number | null;
}

export const OrderAheadMenuDraft = defineEntity<MenuDraftAttributes>()({ entity: 'OrderAheadMenuDraft', key: keys.orderAheadMenuDraft });
export type MenuDraftItem = EntityItem<typeof OrderAheadMenuDraft>;

const MENU_DRAFT_CHANGED = () =>
  conflict(
    'The menu draft changed (saved, published or discarded) since this version was read; read it again and send the change again.',
    1,
    'menu_draft',
    'menu_draft_changed',
  );
const NO_DRAFT = () => unprocessable('menu_draft', 'base', 'This location has no menu draft to publish or discard; save one first.', 'no_draft');

/** What the routes answer: the draft when there is one, else the published menu (or none), with the version to send back. */
export interface MenuDraftState {
  location: LocationItem;
  draft: MenuDraftItem | undefined;
  menu: OrderAheadMenuItem | undefined;
}

/** The draft's version a client sends back: 0 before the first save. */
const versionOf = (draft: MenuDraftItem | undefined) => draft?.version ?? 0;

export function menuDraftView(state: MenuDraftState) {
  const { draft, menu } = state;
  const content = draft?.menu ?? menu;
  return {
    menu_draft: {
      location_id: state.location.location_id,
      merchant_id: state.location.merchant_id,
      state: draft?.menu ? ('draft' as const) : menu ? ('published' as const) : ('empty' as const),
      version: versionOf(draft),
      menu_id: menu?.menu_id ?? null,
      published_version: menu?.version ?? null,
      published_at: menu?.updated_at ?? null,
      updated_at: draft?.menu ? draft.updated_at : (menu?.updated_at ?? null),
      menu: content
        ? { settings: content.settings, category_groups: content.category_groups ?? [], categories: content.categories, upsells: content.upsells }
        : null,
    },
  };
}

/** The location (the staff member's merchant's, else 404), its draft and its menu, each as stored now. */
export async function readMenuDraft(actor: StaffActor, locationId: number): Promise<MenuDraftState> {
  const [location, draft, menu] = await Promise.all([
    getMerchantLocation(actor.merchantId, locationId),
    OrderAheadMenuDraft.at(locationId).get({ consistent: true }),
    OrderAheadMenu.at(locationId).get({ consistent: true }),
  ]);
  return { location, draft, menu };
}

/** A menu as validated again (a publish checks the draft as a save did: rules may have tightened since), or its 422s. */
function validMenu(input: unknown): MenuContent {
  const parsed = menuInputSchema.safeParse(input);
  if (!parsed.success) {
    throw unprocessableAll(
      parsed.error.issues.slice(0, 20).map((issue) => errorDetail('menu_draft', ['menu_draft', ...issue.path].join('.'), issue.message, 'invalid')),
    );
  }
  try {
    checkMenuSize(parsed.data);
  } catch (error) {
    if (error instanceof MenuTooLarge) throw unprocessable('menu_draft', 'menu_draft', error.message, 'too_large');
    throw error;
  }
  return parsed.data;
}

interface DraftChange {
  actor: StaffActor;
  context: AuditContext;
  locationId: number;
  /** The draft version the client read. */
  version: number;
  storeResponse?: (state: MenuDraftState) => TransactItem | undefined;
}

/** The draft's guard: still at the version the client read (none stored yet for 0); with `holding`, a draft is there. */
function draftGuard(version: number, holding: boolean) {
  if (version === 0) return itemIsNew;
  return holding ? and<'version' | 'menu'>(versionIs(version), attributeExists('menu')) : versionIs(version);
}

/**
 * Commits one change of the draft: its write (and the publish's), the audit entry and the stored answer, in one
 * transaction. A guard that failed or a lost race: 409 `menu_draft_changed` with Retry-After, nothing written.
 */
async function commitDraftChange(
  change: DraftChange,
  action: AuditAction,
  state: MenuDraftState,
  writes: TransactItem[],
  audit: { before: unknown; after: unknown },
): Promise<MenuDraftState> {
  const entry = auditEntry(change.context, {
    merchantId: state.location.merchant_id,
    action,
    object: { type: 'menu', id: state.menu?.menu_id ?? `location:${state.location.location_id}` },
    ...audit,
  });
  const stored = change.storeResponse?.(state);
  const outcome = await transactWrite(() => [...writes, entry, ...(stored ? [stored] : [])]);
  if (outcome.committed) return state;
  if (lostRace(outcome) || outcome.reasons.includes('ConditionalCheckFailed')) throw MENU_DRAFT_CHANGED();
  throw new Error(`menu draft change cancelled: ${outcome.reasons.join(',')}`);
}

/** The draft's next stored state (the version raised), written under the version the client read. */
function nextDraft(change: DraftChange, location: LocationItem, menu: MenuContent | undefined): MenuDraftItem {
  return OrderAheadMenuDraft.at(change.locationId).item({
    location_id: location.location_id,
    merchant_id: location.merchant_id,
    version: change.version + 1,
    ...(menu ? { menu } : {}),
    updated_at: isoSeconds(),
    updated_by_staff_id: change.actor.staffId,
  });
}

/** A short account of a menu for the audit entry (the whole menu would exceed the entry's bound). */
const menuSummary = (menu: Pick<MenuContent, 'categories' | 'upsells'> | undefined) =>
  menu && {
    categories: menu.categories.length,
    items: menu.categories.reduce((sum, category) => sum + category.items.length, 0),
    upsells: menu.upsells.length,
  };

/** Replaces the location's draft whole (owner, manager), under the version read. */
export async function saveMenuDraft(change: DraftChange & { menu: unknown }): Promise<MenuDraftState> {
  const content = validMenu(change.menu);
  const state = await readMenuDraft(change.actor, change.locationId);
  if (versionOf(state.draft) !== change.version) throw MENU_DRAFT_CHANGED();
  const draft = nextDraft(change, state.location, { ...content, upsells: await withUpsellIds(content.upsells) });
  const write = OrderAheadMenuDraft.at(change.locationId).put(draft, draftGuard(change.version, false));
  return commitDraftChange(change, 'menu.draft_saved', { ...state, draft }, [write], {
    before: menuSummary(state.draft?.menu),
    after: menuSummary(draft.menu),
  });
}

/**
 * Publishes the draft (owner, manager): validated again, then in ONE transaction the menu apps read (its id kept),
 * the draft emptied under the version read, the audit entry and the stored answer. Of a publish and an edit (or two
 * publishes) racing, one commits and the other is 409 with nothing written.
 */
export async function publishMenuDraft(change: DraftChange): Promise<MenuDraftState> {
  const state = await readMenuDraft(change.actor, change.locationId);
  if (versionOf(state.draft) !== change.version) throw MENU_DRAFT_CHANGED();
  if (!state.draft?.menu) throw NO_DRAFT();
  const content = validMenu(state.draft.menu);
  const publication = await menuPublication(state.location, content, state.menu);
  const draft = nextDraft(change, state.location, undefined);
  const emptied = OrderAheadMenuDraft.at(change.locationId).put(draft, draftGuard(change.version, true));
  const menu = { ...publication.menu, ...keys.orderAheadMenu(change.locationId), ...keys.menuIdIndex(publication.menu.menu_id), entity: OrderAheadMenu.entity };
  return commitDraftChange(change, 'menu.published', { ...state, draft, menu }, [emptied, ...publication.items], {
    before: state.menu && { menu_id: state.menu.menu_id, version: state.menu.version, ...menuSummary(state.menu) },
    after: { menu_id: menu.menu_id, version: menu.version, ...menuSummary(content) },
  });
}

/** Throws the draft away (owner, manager), under the version read: the published menu stays as it is. */
export async function discardMenuDraft(change: DraftChange): Promise<MenuDraftState> {
  const state = await readMenuDraft(change.actor, change.locationId);
  if (versionOf(state.draft) !== change.version) throw MENU_DRAFT_CHANGED();
  if (!state.draft?.menu) throw NO_DRAFT();
  const draft = nextDraft(change, state.location, undefined);
  const write = OrderAheadMenuDraft.at(change.locationId).put(draft, draftGuard(change.version, true));
  return commitDraftChange(change, 'menu.draft_discarded', { ...state, draft }, [write], { before: menuSummary(state.draft.menu), after: undefined });
}

/**
 * The routes' bodies (their answer: shared/openapi/responses.ts). Here, not in shared/schemas: they wrap the menu's own schema (menu.ts), which names
 * the ordering providers. The menu is the same schema the operators' `create-menu` file follows.
 */
const draftVersion = z.number().check(z.int(), z.gte(0), z.lte(Number.MAX_SAFE_INTEGER), z.describe('The `version` of the menu draft as read'));
export const menuDraftSaveBody = z.object({ menu_draft: z.object({ version: draftVersion, menu: menuInputSchema }) });
export const menuDraftVersionBody = z.object({ menu_draft: z.object({ version: draftVersion }) });
