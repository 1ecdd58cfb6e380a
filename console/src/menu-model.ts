import { withIdempotencyKey, type ApiErrors, type components } from '../../clients/typescript/index.ts';

/**
 * The menu editor's model (docs/console.md, "Menu"): the draft the API answers (`menu_draft.menu`, exactly the body
 * of a save) with what a form edits as text (prices in dollars, choice counts) and a key per entry for React and
 * for the fields' ids. Everything the editor does not show (settings, category groups, upsells, windows, images,
 * nutrition, metadata) is kept as it was read and sent back unchanged.
 */
export type MenuDraft = components['schemas']['MenuDraft']['menu_draft'];
export type Menu = NonNullable<MenuDraft['menu']>;
type Category = Menu['categories'][number];
type Item = Category['items'][number];
type OptionGroup = Item['option_groups'][number];
type Option = OptionGroup['options'][number];

export interface OptionModel extends Omit<Option, 'price_amount'> {
  key: string;
  price: string;
  isDefault: boolean;
}
export interface OptionGroupModel extends Omit<OptionGroup, 'options' | 'default_option_ids' | 'minimum_choices' | 'maximum_choices' | 'free_choices'> {
  key: string;
  minimum: string;
  /** Empty: no maximum. */
  maximum: string;
  free: string;
  options: OptionModel[];
}
export interface ItemModel extends Omit<Item, 'price_amount' | 'option_groups'> {
  key: string;
  price: string;
  option_groups: OptionGroupModel[];
}
export interface CategoryModel extends Omit<Category, 'items'> {
  key: string;
  items: ItemModel[];
}
export interface MenuModel {
  /** The menu's other parts as read (none for a location without a menu: the API fills its defaults). */
  rest: Partial<Omit<Menu, 'categories'>>;
  categories: CategoryModel[];
}

/**
 * The API's bounds (docs/merchant-api.md, "Menus"; MENU_BOUNDS in shared/domain/order-ahead/menu.ts), checked in the
 * form before a save so a merchant is told at once; the API's own answer stays the final word.
 */
export const MENU_LIMITS = {
  categories: 50,
  itemsPerCategory: 100,
  items: 300,
  optionGroupsPerItem: 10,
  optionsPerGroup: 50,
  choices: 100,
  name: 200,
  description: 2000,
  maxPriceCents: 100_000_00,
  menuJsonChars: 200_000,
  bodyBytes: 64 * 1024,
} as const;

let keyCount = 0;
const newKey = (prefix: string) => `${prefix}${++keyCount}`;

/** Cents as the price field shows them: "4.50" (integer arithmetic: no floating-point rounding). */
export const dollarsOf = (cents: number): string => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

const PRICE = /^\$?(\d{1,3}(?:,\d{3})+|\d+)?(?:\.(\d{1,2}))?$/;
/** A price typed in dollars ("4.5", "$1,200", ".99") in integer cents; undefined when it is not an amount. */
export function centsOf(text: string): number | undefined {
  const match = PRICE.exec(text.trim());
  if (!match || (match[1] === undefined && match[2] === undefined)) return undefined;
  const cents = Number((match[1] ?? '0').replaceAll(',', '')) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return Number.isSafeInteger(cents) ? cents : undefined;
}

export function toModel(menu: Menu | null): MenuModel {
  if (!menu) return { rest: {}, categories: [] };
  const { categories, ...rest } = menu;
  return {
    rest,
    categories: categories.map(({ items, ...category }) => ({
      ...category,
      key: newKey('c'),
      items: items.map(({ price_amount, option_groups, ...item }) => ({
        ...item,
        key: newKey('i'),
        price: dollarsOf(price_amount),
        option_groups: option_groups.map(({ options, default_option_ids, minimum_choices, maximum_choices, free_choices, ...group }) => ({
          ...group,
          key: newKey('g'),
          minimum: String(minimum_choices),
          maximum: maximum_choices === null ? '' : String(maximum_choices),
          free: String(free_choices),
          options: options.map(({ price_amount: optionPrice, ...option }) => ({
            ...option,
            key: newKey('o'),
            price: dollarsOf(optionPrice),
            isDefault: default_option_ids.includes(option.id),
          })),
        })),
      })),
    })),
  };
}

/** The menu to send (call once {@link menuProblems} finds none: prices and counts are then valid). */
export function toMenu(model: MenuModel): Menu {
  return {
    ...(model.rest as Omit<Menu, 'categories'>),
    categories: model.categories.map(({ key: _category, items, ...category }) => ({
      ...category,
      description: category.description === '' ? null : category.description,
      items: items.map(({ key: _item, price, option_groups, ...item }) => ({
        ...item,
        price_amount: centsOf(price) ?? 0,
        option_groups: option_groups.map(({ key: _group, minimum, maximum, free, options, ...group }) => ({
          ...group,
          minimum_choices: Number(minimum),
          maximum_choices: maximum.trim() === '' ? null : Number(maximum),
          free_choices: Number(free),
          default_option_ids: options.filter((option) => option.isDefault).map((option) => option.id),
          options: options.map(({ key: _option, price: optionPrice, isDefault: _default, ...option }) => ({
            ...option,
            price_amount: centsOf(optionPrice) ?? 0,
          })),
        })),
      })),
    })),
  };
}

/** An id no entry of `taken` has (ids are the merchant's, often from their POS: the next after the largest, else a gap). */
function unusedId(taken: readonly number[]): number {
  const largest = Math.max(0, ...taken);
  if (largest < Number.MAX_SAFE_INTEGER) return largest + 1;
  const used = new Set(taken);
  let id = 1;
  while (used.has(id)) id++;
  return id;
}

export const allItems = (model: MenuModel): ItemModel[] => model.categories.flatMap((category) => category.items);

export function newOption(item: ItemModel): OptionModel {
  const taken = item.option_groups.flatMap((group) => group.options.map((option) => option.id));
  return { key: newKey('o'), id: unusedId(taken), name: '', price: '0.00', available: true, isDefault: false };
}

export function newOptionGroup(item: ItemModel): OptionGroupModel {
  const group: OptionGroupModel = {
    key: newKey('g'),
    id: unusedId(item.option_groups.map((entry) => entry.id)),
    name: '',
    minimum: '0',
    maximum: '1',
    free: '0',
    options: [],
  };
  group.options.push(newOption({ ...item, option_groups: [...item.option_groups, group] }));
  return group;
}

export function newItem(model: MenuModel): ItemModel {
  return {
    key: newKey('i'),
    id: unusedId(allItems(model).map((item) => item.id)),
    name: '',
    description: '',
    price: '',
    ...unsetItemParts(),
    available: true,
    availability_windows: [],
    option_groups: [],
  };
}

/** A new item's optional parts, none set yet (fresh objects each time: the editor's items never share one). */
function unsetItemParts() {
  return { image_url: null, metadata: {}, allows_special_instructions: null, special_instructions_character_limit: null, nutrition: {}, sku: null, upc: null };
}

/** A category starts with one empty item: the API keeps no category without items. */
export function newCategory(model: MenuModel): CategoryModel {
  return {
    key: newKey('c'),
    id: unusedId(model.categories.map((category) => category.id)),
    name: '',
    description: null,
    category_group_id: null,
    availability_windows: [],
    items: [newItem(model)],
  };
}

/** `list` with the entry at `index` moved by `by` places (within the list). */
export function moved<T>(list: readonly T[], index: number, by: number): T[] {
  const target = Math.min(list.length - 1, Math.max(0, index + by));
  const next = [...list];
  const [entry] = next.splice(index, 1);
  if (entry !== undefined) next.splice(target, 0, entry);
  return next;
}

/** `list` without the entry at `index`. */
export function without<T>(list: readonly T[], index: number): T[] {
  return list.filter((_, position) => position !== index);
}

/**
 * Removes an item and its mentions in upsells (the API refuses an upsell naming an item not on the menu): an upsell
 * left with nothing to suggest goes too. Answers the prompts of the upsells changed, to tell the merchant.
 */
export function withoutItem(model: MenuModel, categoryIndex: number, itemIndex: number): { model: MenuModel; upsellsChanged: string[] } {
  const item = model.categories[categoryIndex]?.items[itemIndex];
  if (!item) return { model, upsellsChanged: [] };
  const categories = model.categories.map((category, index) =>
    index === categoryIndex ? { ...category, items: without(category.items, itemIndex) } : category,
  );
  const upsellsChanged: string[] = [];
  const upsells = (model.rest.upsells ?? []).flatMap((upsell) => {
    if (!upsell.item_ids.includes(item.id) && !upsell.trigger_item_ids.includes(item.id)) return [upsell];
    upsellsChanged.push(upsell.prompt);
    const itemIds = upsell.item_ids.filter((id) => id !== item.id);
    return itemIds.length === 0 ? [] : [{ ...upsell, item_ids: itemIds, trigger_item_ids: upsell.trigger_item_ids.filter((id) => id !== item.id) }];
  });
  return { model: { rest: model.rest.upsells ? { ...model.rest, upsells } : model.rest, categories }, upsellsChanged };
}

/** A problem the form shows beside its field and in the summary; `fieldId` is the element to focus. */
export interface Problem {
  fieldId: string;
  message: string;
}

/** The ids of the editor's fields (one per entry key), shared by the form and the problems. */
export const fieldId = (key: string, field: string) => `menu-${key}-${field}`;
export const ADD_CATEGORY_ID = 'menu-add-category';

const quoted = (name: string, fallback: string) => (name.trim() === '' ? fallback : `“${name.trim()}”`);

function checkName(problems: Problem[], key: string, name: string, what: string) {
  if (name.trim() === '') problems.push({ fieldId: fieldId(key, 'name'), message: `${what}: enter a name.` });
  else if (name.length > MENU_LIMITS.name)
    problems.push({ fieldId: fieldId(key, 'name'), message: `${what}: a name has at most ${MENU_LIMITS.name} characters.` });
}

function checkPrice(problems: Problem[], key: string, price: string, what: string) {
  const cents = centsOf(price);
  if (cents === undefined) problems.push({ fieldId: fieldId(key, 'price'), message: `${what}: enter the price in dollars, like 4.50.` });
  else if (cents > MENU_LIMITS.maxPriceCents) problems.push({ fieldId: fieldId(key, 'price'), message: `${what}: a price is at most $100,000.00.` });
}

/** A whole count from 0 (or 1) to 100, or undefined. */
function countOf(text: string, least: number): number | undefined {
  if (!/^\d{1,3}$/.test(text.trim())) return undefined;
  const count = Number(text);
  return count >= least && count <= MENU_LIMITS.choices ? count : undefined;
}

/** Every bound and rule of the API's menu schema the form can check, in the order the fields appear. */
export function menuProblems(model: MenuModel): Problem[] {
  const problems: Problem[] = [];
  if (model.categories.length === 0) problems.push({ fieldId: ADD_CATEGORY_ID, message: 'Add at least one category: a menu needs one.' });
  if (model.categories.length > MENU_LIMITS.categories)
    problems.push({ fieldId: ADD_CATEGORY_ID, message: `A menu has at most ${MENU_LIMITS.categories} categories (this one has ${model.categories.length}).` });
  const itemCount = allItems(model).length;
  if (itemCount > MENU_LIMITS.items)
    problems.push({ fieldId: ADD_CATEGORY_ID, message: `A menu has at most ${MENU_LIMITS.items} items in all (this one has ${itemCount}). Remove some.` });

  model.categories.forEach((category, categoryIndex) => {
    const categoryName = `Category ${quoted(category.name, String(categoryIndex + 1))}`;
    checkName(problems, category.key, category.name, categoryName);
    if ((category.description ?? '').length > MENU_LIMITS.description)
      problems.push({
        fieldId: fieldId(category.key, 'description'),
        message: `${categoryName}: a description has at most ${MENU_LIMITS.description} characters.`,
      });
    if (category.items.length === 0) problems.push({ fieldId: fieldId(category.key, 'add-item'), message: `${categoryName}: add at least one item.` });
    if (category.items.length > MENU_LIMITS.itemsPerCategory)
      problems.push({ fieldId: fieldId(category.key, 'add-item'), message: `${categoryName}: a category has at most ${MENU_LIMITS.itemsPerCategory} items.` });

    category.items.forEach((item, itemIndex) => {
      const itemName = `Item ${quoted(item.name, `${itemIndex + 1} of ${categoryName}`)}`;
      checkName(problems, item.key, item.name, itemName);
      if (item.description.length > MENU_LIMITS.description)
        problems.push({ fieldId: fieldId(item.key, 'description'), message: `${itemName}: a description has at most ${MENU_LIMITS.description} characters.` });
      checkPrice(problems, item.key, item.price, itemName);
      if (item.option_groups.length > MENU_LIMITS.optionGroupsPerItem)
        problems.push({
          fieldId: fieldId(item.key, 'add-group'),
          message: `${itemName}: an item has at most ${MENU_LIMITS.optionGroupsPerItem} option groups.`,
        });

      item.option_groups.forEach((group, groupIndex) => {
        const groupName = `${itemName}, option group ${quoted(group.name, String(groupIndex + 1))}`;
        checkName(problems, group.key, group.name, groupName);
        const minimum = countOf(group.minimum, 0);
        const maximum = group.maximum.trim() === '' ? null : countOf(group.maximum, 1);
        if (minimum === undefined)
          problems.push({ fieldId: fieldId(group.key, 'minimum'), message: `${groupName}: the fewest choices is a whole number from 0 to 100.` });
        if (maximum === undefined)
          problems.push({
            fieldId: fieldId(group.key, 'maximum'),
            message: `${groupName}: the most choices is a whole number from 1 to 100, or empty for no limit.`,
          });
        else if (maximum !== null && minimum !== undefined && maximum < minimum)
          problems.push({ fieldId: fieldId(group.key, 'maximum'), message: `${groupName}: the most choices cannot be fewer than the fewest.` });
        if (countOf(group.free, 0) === undefined)
          problems.push({ fieldId: fieldId(group.key, 'free'), message: `${groupName}: free choices is a whole number from 0 to 100.` });
        if (group.options.length === 0) problems.push({ fieldId: fieldId(group.key, 'add-option'), message: `${groupName}: add at least one option.` });
        if (group.options.length > MENU_LIMITS.optionsPerGroup)
          problems.push({ fieldId: fieldId(group.key, 'add-option'), message: `${groupName}: a group has at most ${MENU_LIMITS.optionsPerGroup} options.` });
        group.options.forEach((option, optionIndex) => {
          const optionName = `${groupName}, option ${quoted(option.name, String(optionIndex + 1))}`;
          checkName(problems, option.key, option.name, optionName);
          checkPrice(problems, option.key, option.price, optionName);
        });
      });
    });
  });
  if (problems.length > 0) return problems;

  // The whole: the stored menu's bound and the request body's.
  const json = JSON.stringify(toMenu(model));
  if (json.length > MENU_LIMITS.menuJsonChars || new TextEncoder().encode(json).length + 100 > MENU_LIMITS.bodyBytes)
    problems.push({ fieldId: ADD_CATEGORY_ID, message: 'The menu is too large to save. Shorten descriptions or remove items.' });
  return problems;
}

/**
 * The field an API error names (`menu_draft.menu.categories.0.items.1.price_amount`), mapped to the form's field at
 * those positions (the menu sent follows the form's order); otherwise no field (shown in the summary only).
 */
export function fieldOfApiError(model: MenuModel, property: string): string | undefined {
  const match = /categories\.(\d+)(?:\.items\.(\d+)(?:\.option_groups\.(\d+)(?:\.options\.(\d+))?)?)?(?:\.([a-z_]+))?/.exec(property);
  if (!match) return undefined;
  const category = model.categories[Number(match[1])];
  const item = match[2] === undefined ? undefined : category?.items[Number(match[2])];
  const group = match[3] === undefined ? undefined : item?.option_groups[Number(match[3])];
  const option = match[4] === undefined ? undefined : group?.options[Number(match[4])];
  const entry = option ?? group ?? item ?? category;
  if (!entry) return undefined;
  const field = match[5] ?? 'name';
  const named: Record<string, string> = {
    price_amount: 'price',
    description: 'description',
    minimum_choices: 'minimum',
    maximum_choices: 'maximum',
    free_choices: 'free',
    items: 'add-item',
    options: 'add-option',
    option_groups: 'add-group',
  };
  return fieldId(entry.key, named[field] ?? 'name');
}

/** The API's 422 errors as problems: its own messages, the final word on what a menu may hold. */
export function apiProblems(model: MenuModel, errors: ApiErrors | undefined): Problem[] {
  return (errors ?? []).map(({ error }) => ({
    fieldId: fieldOfApiError(model, error.property) ?? ADD_CATEGORY_ID,
    message: error.message,
  }));
}

/** Attempts of a save, publish or discard: a busy API or a first attempt still in flight is sent again, same key. */
const CHANGE_ATTEMPTS = 3;
/** Stops withIdempotencyKey's retries at a stale version (the answer is kept aside, then answered). */
class StaleDraft extends Error {
  constructor() {
    super('menu_draft_changed');
    this.name = 'StaleDraft';
  }
}

const isStaleDraft = (answer: { error?: unknown; response: Response }) =>
  answer.response.status === 409 && (answer.error as ApiErrors | undefined)?.[0]?.error.code === 'menu_draft_changed';

/**
 * Sends a change of the draft with one Idempotency-Key (withIdempotencyKey: 409 in flight, 429 and 5xx are sent
 * again), except that 409 `menu_draft_changed` answers at once: the version sent is stale, so sending it again can
 * only be refused again; the merchant reloads instead.
 */
export async function sendDraftChange<Answer extends { error?: unknown; response: Response }>(send: (key: string) => Promise<Answer>): Promise<Answer> {
  let stale: Answer | undefined;
  try {
    return await withIdempotencyKey(
      async (key) => {
        const answer = await send(key);
        if (isStaleDraft(answer)) {
          stale = answer;
          throw new StaleDraft();
        }
        return answer;
      },
      {
        attempts: CHANGE_ATTEMPTS,
        // Called only before another attempt: after a stale answer there is none.
        sleep: (ms) => (stale ? Promise.reject(new StaleDraft()) : new Promise((resolve) => setTimeout(resolve, ms))),
      },
    );
  } catch (failure) {
    if (failure instanceof StaleDraft && stale) return stale;
    throw failure;
  }
}
