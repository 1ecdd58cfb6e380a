/**
 * The console menu editor's model (console/src/menu-model.ts; docs/console.md, "Menu"): dollars typed and cents
 * sent, a menu read and sent back unchanged when nothing was edited, the API's bounds checked in the form, an API
 * error placed at its field, an item's removal leaving no upsell naming it, and a stale version answered at once
 * (never sent again) while a change still in flight is sent again with the same key.
 */
import { describe, expect, it } from 'vitest';
import {
  ADD_CATEGORY_ID,
  centsOf,
  dollarsOf,
  fieldId,
  fieldOfApiError,
  menuProblems,
  newCategory,
  newItem,
  sendDraftChange,
  toMenu,
  toModel,
  withoutItem,
  type Menu,
} from '../../console/src/menu-model.ts';
import { menuInputSchema } from '#shared/domain/order-ahead/menu.ts';
import { SAMPLE_IDS, sampleMenu } from '#shared/domain/order-ahead/sample-menu.ts';

/** The sample menu as the API answers a draft: every default filled in. */
const answeredMenu = (): Menu => menuInputSchema.parse(sampleMenu());

describe('prices: dollars in the form, integer cents on the wire', () => {
  it.each([
    ['4.50', 450],
    ['4.5', 450],
    ['4', 400],
    ['.99', 99],
    ['$1,200', 120_000],
    [' 100000.00 ', 100_000_00],
    ['0.07', 7],
    ['1.10', 110],
  ])('%j is %d cents', (text, cents) => {
    expect(centsOf(text)).toBe(cents);
  });

  it.each(['', '.', '4.505', '-1', '1,20', 'four', '4.5.0', '1e3'])('%j is not an amount', (text) => {
    expect(centsOf(text)).toBeUndefined();
  });

  it.each([
    [0, '0.00'],
    [7, '0.07'],
    [110, '1.10'],
    [149, '1.49'],
    [100_000_00, '100000.00'],
  ])('%d cents show as %j, and read back the same', (cents, text) => {
    expect(dollarsOf(cents)).toBe(text);
    expect(centsOf(text)).toBe(cents);
  });
});

describe('the model', () => {
  it('sends back exactly the menu it read when nothing was edited', () => {
    const menu = answeredMenu();
    const model = toModel(menu);
    expect(menuProblems(model)).toEqual([]);
    expect(toMenu(model)).toEqual(menu);
  });

  it('a new category (with its one item) and a new item get ids the menu does not use, and the API schema takes them once named and priced', () => {
    const model = toModel(answeredMenu());
    const category = newCategory(model);
    expect(category.id).toBe(5);
    expect(category.items.map((item) => item.id)).toEqual([SAMPLE_IDS.breakfastSandwich + 1]);
    category.name = 'Pastries';
    Object.assign(category.items[0]!, { name: 'Croissant', price: '3.25' });
    const withCategory = { ...model, categories: [...model.categories, category] };
    const second = newItem(withCategory);
    expect(second.id).toBe(SAMPLE_IDS.breakfastSandwich + 2);
    expect(menuProblems(withCategory)).toEqual([]);
    const sent = toMenu(withCategory);
    expect(menuInputSchema.safeParse(sent).success).toBe(true);
    expect(sent.categories.at(-1)).toMatchObject({ id: 5, name: 'Pastries', description: null, items: [{ name: 'Croissant', price_amount: 325 }] });
  });

  it('removing an item takes it out of the upsells naming it, and an upsell left with nothing to suggest goes', () => {
    const model = toModel(answeredMenu());
    const drinks = model.categories.findIndex((category) => category.name === 'Drinks and sweets');
    const withoutWater = withoutItem(model, drinks, 0);
    expect(withoutWater.upsellsChanged).toEqual(['Add a drink or something sweet?']);
    expect(withoutWater.model.rest.upsells?.[0]?.item_ids).toEqual([SAMPLE_IDS.cookie]);
    const withoutBoth = withoutItem(withoutWater.model, drinks, 0);
    expect(withoutBoth.model.rest.upsells).toEqual([]);
    expect(menuInputSchema.safeParse(toMenu(withoutBoth.model)).success).toBe(false); // the category is left with no item
    expect(menuProblems(withoutBoth.model)).toEqual([
      { fieldId: fieldId(model.categories[drinks]!.key, 'add-item'), message: 'Category “Drinks and sweets”: add at least one item.' },
    ]);
  });
});

describe("the API's bounds, in the form", () => {
  it('an empty menu needs a category', () => {
    expect(menuProblems(toModel(null))).toEqual([{ fieldId: ADD_CATEGORY_ID, message: 'Add at least one category: a menu needs one.' }]);
  });

  it('names, descriptions, prices, counts and choices are bounded as the schema bounds them', () => {
    const model = toModel(answeredMenu());
    const tots = model.categories[0]!.items[0]!;
    const size = tots.option_groups[0]!;
    tots.name = ' ';
    tots.description = 'x'.repeat(2001);
    tots.price = '100000.01';
    size.minimum = '2';
    size.maximum = '1';
    size.free = '101';
    size.options[0]!.price = 'one';
    model.categories[1]!.name = 'x'.repeat(201);
    expect(menuProblems(model).map((problem) => [problem.fieldId, problem.message])).toEqual([
      [fieldId(tots.key, 'name'), 'Item 1 of Category “Appetizers”: enter a name.'],
      [fieldId(tots.key, 'description'), 'Item 1 of Category “Appetizers”: a description has at most 2000 characters.'],
      [fieldId(tots.key, 'price'), 'Item 1 of Category “Appetizers”: a price is at most $100,000.00.'],
      [fieldId(size.key, 'maximum'), 'Item 1 of Category “Appetizers”, option group “Size”: the most choices cannot be fewer than the fewest.'],
      [fieldId(size.key, 'free'), 'Item 1 of Category “Appetizers”, option group “Size”: free choices is a whole number from 0 to 100.'],
      [fieldId(size.options[0]!.key, 'price'), 'Item 1 of Category “Appetizers”, option group “Size”, option “Small”: enter the price in dollars, like 4.50.'],
      [fieldId(model.categories[1]!.key, 'name'), `Category “${'x'.repeat(201)}”: a name has at most 200 characters.`],
    ]);
  });

  it('more than 100 items in a category, or 300 in the menu, is refused', () => {
    const model = toModel(answeredMenu());
    const lunch = model.categories[1]!;
    while (lunch.items.length < 101) lunch.items.push({ ...newItem(model), name: 'Taco', price: '3.00' });
    expect(menuProblems(model).map((problem) => problem.message)).toEqual(['Category “Lunch”: a category has at most 100 items.']);
    lunch.items.length = 100;
    for (const category of model.categories.slice(2))
      while (category.items.length < 100) category.items.push({ ...newItem(model), name: 'Taco', price: '3.00' });
    expect(menuProblems(model).map((problem) => problem.message)).toEqual(['A menu has at most 300 items in all (this one has 301). Remove some.']);
  });
});

describe("the API's answer, placed at its field", () => {
  it('maps an error property to the field at those positions', () => {
    const model = toModel(answeredMenu());
    const burrito = model.categories[1]!.items[0]!;
    expect(fieldOfApiError(model, 'menu_draft.menu.categories.1.items.0.price_amount')).toBe(fieldId(burrito.key, 'price'));
    expect(fieldOfApiError(model, 'menu_draft.menu.categories.1.items.0.option_groups.0.maximum_choices')).toBe(
      fieldId(burrito.option_groups[0]!.key, 'maximum'),
    );
    expect(fieldOfApiError(model, 'menu_draft.menu.categories.1.items.0.option_groups.0.options.2.name')).toBe(
      fieldId(burrito.option_groups[0]!.options[2]!.key, 'name'),
    );
    expect(fieldOfApiError(model, 'menu_draft.menu.categories.1')).toBe(fieldId(model.categories[1]!.key, 'name'));
    expect(fieldOfApiError(model, 'menu_draft.menu.categories.9.name')).toBeUndefined();
    expect(fieldOfApiError(model, 'menu_draft')).toBeUndefined();
  });
});

describe('sending a change', () => {
  const answer = (status: number, code?: string) => ({
    response: new Response(null, { status, headers: { 'Retry-After': '0' } }),
    error: code ? [{ error: { object: 'menu_draft', property: 'base', message: 'changed', code } }] : undefined,
  });

  it('a stale version (409 menu_draft_changed) answers at once, sent once', async () => {
    const keys: string[] = [];
    const result = await sendDraftChange(async (key) => {
      keys.push(key);
      return answer(409, 'menu_draft_changed');
    });
    expect(result.response.status).toBe(409);
    expect(keys).toHaveLength(1);
  });

  it('a change still in flight (409) or a busy API (429) is sent again with the same key', async () => {
    const keys: string[] = [];
    const statuses = [409, 429, 200];
    const result = await sendDraftChange(async (key) => {
      keys.push(key);
      return answer(statuses[keys.length - 1]!, keys.length === 1 ? 'in_flight' : undefined);
    });
    expect(result.response.status).toBe(200);
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
  });
});
