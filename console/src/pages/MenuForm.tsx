import type { ReactNode } from 'react';
import {
  ADD_CATEGORY_ID,
  fieldId,
  MENU_LIMITS,
  moved,
  without,
  newCategory,
  newItem,
  newOption,
  newOptionGroup,
  withoutItem,
  type CategoryModel,
  type ItemModel,
  type MenuModel,
  type OptionGroupModel,
  type OptionModel,
} from '../menu-model.ts';
import { COMPACT_FIELDS, TextField } from '../form-fields.tsx';

/** A change of the menu, what to say about it (polite status) and which element gets the focus after it. */
export type MenuChange = (next: MenuModel, said?: string, focusId?: string) => void;

/** The problems shown beside each field (after a save was tried), by field id. */
export type ShownProblems = ReadonlyMap<string, readonly string[]>;

const named = (name: string, fallback: string) => (name.trim() === '' ? fallback : name.trim());

/** A field of an entry (by the entry's key) with the problems shown beside it, in the menu editor's compact look. */
function fieldOf(key: string, field: string, problems: ShownProblems) {
  const id = fieldId(key, field);
  const shown = problems.get(id) ?? [];
  return { id, problem: shown.length > 0 ? shown.join(' ') : undefined, look: COMPACT_FIELDS, autoComplete: 'off' as const };
}

/** An entry's text field: its id by the entry's key, its value, and the entry as changed by it. */
function entryField<Entry extends { key: string }>(entry: Entry, field: TextKey<Entry>, problems: ShownProblems, onChange: (next: Entry) => void) {
  return {
    ...fieldOf(entry.key, field, problems),
    value: (entry[field] as string | null | undefined) ?? '',
    onChange: (value: string) => onChange({ ...entry, [field]: value }),
  };
}

/** The fields of an entry that hold text (or an optional text). */
type TextKey<Entry> = { [Field in keyof Entry]: Entry[Field] extends string | null | undefined ? Field & string : never }[keyof Entry];

/** A count of an option group's choices. */
const CHOICE_COUNT = { type: 'number', max: MENU_LIMITS.choices } as const;

/** Move up, move down and remove for one entry of a list: buttons, so the keyboard reorders as well as a pointer. */
function EntryControls({
  entryKey,
  name,
  index,
  count,
  onMove,
  onRemove,
  removable = true,
}: {
  entryKey: string;
  name: string;
  index: number;
  count: number;
  onMove: (by: number) => void;
  onRemove: () => void;
  removable?: boolean;
}) {
  return (
    <div className="menu-controls">
      <button type="button" className="secondary" id={fieldId(entryKey, 'up')} disabled={index === 0} onClick={() => onMove(-1)}>
        Move up<span className="visually-hidden"> {name}</span>
      </button>
      <button type="button" className="secondary" id={fieldId(entryKey, 'down')} disabled={index === count - 1} onClick={() => onMove(1)}>
        Move down<span className="visually-hidden"> {name}</span>
      </button>
      {removable ? (
        <button type="button" className="secondary danger" onClick={onRemove}>
          Remove<span className="visually-hidden"> {name}</span>
        </button>
      ) : null}
    </div>
  );
}

/** After a move, the same button of the moved entry keeps the focus (or the other one, at an end of the list). */
function moveFocus(key: string, to: number, count: number, by: number): string {
  if (by < 0) return fieldId(key, to === 0 ? 'down' : 'up');
  return fieldId(key, to === count - 1 ? 'up' : 'down');
}

const position = (index: number, count: number) => `position ${index + 1} of ${count}`;

/**
 * Moving the entry at `index` of `list` by `by` places, the same at every level of the menu: the reordered list, the
 * words that announce it (`announce` is given its new position), and the id that keeps the focus.
 */
function moveOf<T extends { key: string }>(list: readonly T[], index: number, by: number, announce: (where: string) => string): [T[], string, string] {
  const to = Math.min(list.length - 1, Math.max(0, index + by));
  return [moved(list, index, by), announce(position(to, list.length)), moveFocus(list[index]!.key, to, list.length, by)];
}

/** The categories, items, option groups and options of the draft, each editable, added, removed and reordered. */
export function MenuForm({ model, onChange, problems }: { model: MenuModel; onChange: MenuChange; problems: ShownProblems }) {
  const setCategories = (categories: CategoryModel[], said?: string, focusId?: string) => onChange({ ...model, categories }, said, focusId);
  const setCategory = (index: number, category: CategoryModel, said?: string, focusId?: string) =>
    setCategories(
      model.categories.map((entry, position) => (position === index ? category : entry)),
      said,
      focusId,
    );
  const atLimit = model.categories.length >= MENU_LIMITS.categories;

  return (
    <>
      {model.categories.length === 0 ? <p>This menu has no category yet. Add one, then its items.</p> : null}
      {model.categories.map((category, categoryIndex) => (
        <CategoryEditor
          key={category.key}
          model={model}
          category={category}
          index={categoryIndex}
          count={model.categories.length}
          problems={problems}
          onChange={(next, said, focusId) => setCategory(categoryIndex, next, said, focusId)}
          onMenuChange={onChange}
          onMove={(by) =>
            setCategories(...moveOf(model.categories, categoryIndex, by, (where) => `Category ${named(category.name, 'without a name')} moved to ${where}.`))
          }
          onRemove={() =>
            setCategories(
              without(model.categories, categoryIndex),
              `Category ${named(category.name, 'without a name')} and its ${category.items.length} items removed.`,
              ADD_CATEGORY_ID,
            )
          }
        />
      ))}
      <div className="menu-add">
        {atLimit ? (
          <p className="hint">A menu has at most {MENU_LIMITS.categories} categories.</p>
        ) : (
          <button
            type="button"
            className="secondary"
            id={ADD_CATEGORY_ID}
            aria-invalid={problems.has(ADD_CATEGORY_ID) ? true : undefined}
            aria-describedby={problems.has(ADD_CATEGORY_ID) ? `${ADD_CATEGORY_ID}-problem` : undefined}
            onClick={() => {
              const category = newCategory(model);
              setCategories([...model.categories, category], 'Category added, with one item.', fieldId(category.key, 'name'));
            }}
          >
            Add a category
          </button>
        )}
        {problems.has(ADD_CATEGORY_ID) ? (
          <span id={`${ADD_CATEGORY_ID}-problem`} className="menu-problem">
            {problems.get(ADD_CATEGORY_ID)?.join(' ')}
          </span>
        ) : null}
      </div>
    </>
  );
}

/** What each editor of an entry in a list gets: its place in the list, the problems, and how it changes, moves and goes. */
interface ListEntryProps<Entry> {
  index: number;
  count: number;
  problems: ShownProblems;
  onChange: (next: Entry, said?: string, focusId?: string) => void;
  onMove: (by: number) => void;
  onRemove: () => void;
}

function CategoryEditor({
  model,
  category,
  index,
  count,
  problems,
  onChange,
  onMenuChange,
  onMove,
  onRemove,
}: {
  model: MenuModel;
  category: CategoryModel;
  onMenuChange: MenuChange;
} & ListEntryProps<CategoryModel>) {
  const title = named(category.name, 'New category');
  const headingId = fieldId(category.key, 'heading');
  const setItem = (itemIndex: number, item: ItemModel, said?: string, focusId?: string) =>
    onChange({ ...category, items: category.items.map((entry, position) => (position === itemIndex ? item : entry)) }, said, focusId);
  const itemLimit = category.items.length >= MENU_LIMITS.itemsPerCategory;
  const menuLimit = model.categories.reduce((sum, entry) => sum + entry.items.length, 0) >= MENU_LIMITS.items;

  return (
    <section className="menu-category" aria-labelledby={headingId}>
      <h2 id={headingId}>
        <span className="hint">Category {index + 1}:</span> {title}
      </h2>
      <div className="menu-fields">
        <TextField {...entryField(category, 'name', problems, onChange)} label="Category name" maxLength={MENU_LIMITS.name} />
        <TextField
          {...entryField(category, 'description', problems, onChange)}
          label="Category description (optional)"
          maxLength={MENU_LIMITS.description}
          multiline
          rows={2}
        />
      </div>
      <EntryControls entryKey={category.key} name={`category ${title}`} index={index} count={count} onMove={onMove} onRemove={onRemove} />
      {category.items.map((item, itemIndex) => (
        <ItemEditor
          key={item.key}
          item={item}
          index={itemIndex}
          count={category.items.length}
          problems={problems}
          onChange={(next, said, focusId) => setItem(itemIndex, next, said, focusId)}
          onMove={(by) => {
            const [items, said, focusId] = moveOf(
              category.items,
              itemIndex,
              by,
              (where) => `${named(item.name, 'The item without a name')} moved to ${where} in ${title}.`,
            );
            onChange({ ...category, items }, said, focusId);
          }}
          onRemove={() => {
            const { model: next, upsellsChanged } = withoutItem(model, index, itemIndex);
            const upsells = upsellsChanged.length > 0 ? ` It is no longer in the upsells ${upsellsChanged.map((prompt) => `“${prompt}”`).join(', ')}.` : '';
            onMenuChange(next, `${named(item.name, 'The item without a name')} removed from ${title}.${upsells}`, fieldId(category.key, 'add-item'));
          }}
        />
      ))}
      <div className="menu-add">
        {itemLimit || menuLimit ? (
          <p className="hint" id={fieldId(category.key, 'add-item')} tabIndex={-1}>
            {itemLimit ? `A category has at most ${MENU_LIMITS.itemsPerCategory} items.` : `A menu has at most ${MENU_LIMITS.items} items in all.`}
          </p>
        ) : (
          <button
            type="button"
            className="secondary"
            id={fieldId(category.key, 'add-item')}
            onClick={() => {
              const item = newItem(model);
              onChange({ ...category, items: [...category.items, item] }, `Item added to ${title}.`, fieldId(item.key, 'name'));
            }}
          >
            Add an item<span className="visually-hidden"> to {title}</span>
          </button>
        )}
        {problems.has(fieldId(category.key, 'add-item')) ? (
          <span className="menu-problem">{problems.get(fieldId(category.key, 'add-item'))?.join(' ')}</span>
        ) : null}
      </div>
    </section>
  );
}

function ItemEditor({
  item,
  index,
  count,
  problems,
  onChange,
  onMove,
  onRemove,
}: {
  item: ItemModel;
} & ListEntryProps<ItemModel>) {
  const title = named(item.name, 'New item');
  const headingId = fieldId(item.key, 'heading');
  const setGroups = (option_groups: OptionGroupModel[], said?: string, focusId?: string) => onChange({ ...item, option_groups }, said, focusId);
  const groupProblems = item.option_groups.some((group) =>
    [group.key, ...group.options.map((option) => option.key)].some((key) => [...problems.keys()].some((id) => id.startsWith(`menu-${key}-`))),
  );

  return (
    <div className="menu-item" role="group" aria-labelledby={headingId}>
      <h3 id={headingId}>{title}</h3>
      <div className="menu-fields">
        <TextField {...entryField(item, 'name', problems, onChange)} label="Item name" maxLength={MENU_LIMITS.name} />
        <TextField {...entryField(item, 'price', problems, onChange)} label="Price in dollars" hint="For example 4.50" inputMode="decimal" maxLength={12} />
        <TextField
          {...entryField(item, 'description', problems, onChange)}
          label="Item description (optional)"
          maxLength={MENU_LIMITS.description}
          multiline
          rows={2}
        />
        <label className="menu-check">
          <input type="checkbox" checked={item.available} onChange={(event) => onChange({ ...item, available: event.target.checked })} />
          Available to order (clear when sold out)
        </label>
      </div>
      {/* Open by itself when one of its fields has a problem, so the summary's links reach it. */}
      <details className="menu-options" open={groupProblems || undefined}>
        <summary>
          Options<span className="visually-hidden"> of {title}</span> ({item.option_groups.length} {item.option_groups.length === 1 ? 'group' : 'groups'})
        </summary>
        {item.option_groups.map((group, groupIndex) => (
          <OptionGroupEditor
            key={group.key}
            item={item}
            group={group}
            index={groupIndex}
            count={item.option_groups.length}
            problems={problems}
            onChange={(next, said, focusId) =>
              setGroups(
                item.option_groups.map((entry, position) => (position === groupIndex ? next : entry)),
                said,
                focusId,
              )
            }
            onMove={(by) =>
              setGroups(...moveOf(item.option_groups, groupIndex, by, (where) => `Option group ${named(group.name, 'without a name')} moved to ${where}.`))
            }
            onRemove={() =>
              setGroups(
                without(item.option_groups, groupIndex),
                `Option group ${named(group.name, 'without a name')} removed from ${title}.`,
                fieldId(item.key, 'add-group'),
              )
            }
          />
        ))}
        {item.option_groups.length >= MENU_LIMITS.optionGroupsPerItem ? (
          <p className="hint" id={fieldId(item.key, 'add-group')} tabIndex={-1}>
            An item has at most {MENU_LIMITS.optionGroupsPerItem} option groups.
          </p>
        ) : (
          <button
            type="button"
            className="secondary"
            id={fieldId(item.key, 'add-group')}
            onClick={() => {
              const group = newOptionGroup(item);
              setGroups([...item.option_groups, group], `Option group added to ${title}, with one option.`, fieldId(group.key, 'name'));
            }}
          >
            Add an option group<span className="visually-hidden"> to {title}</span>
          </button>
        )}
      </details>
      <EntryControls entryKey={item.key} name={`item ${title}`} index={index} count={count} onMove={onMove} onRemove={onRemove} />
    </div>
  );
}

function OptionGroupEditor({
  item,
  group,
  index,
  count,
  problems,
  onChange,
  onMove,
  onRemove,
}: {
  item: ItemModel;
  group: OptionGroupModel;
} & ListEntryProps<OptionGroupModel>) {
  const title = named(group.name, 'New option group');
  const headingId = fieldId(group.key, 'heading');
  const setOptions = (options: OptionModel[], said?: string, focusId?: string) => onChange({ ...group, options }, said, focusId);
  const setOption = (optionIndex: number, option: OptionModel) =>
    setOptions(group.options.map((entry, position) => (position === optionIndex ? option : entry)));

  return (
    <div className="menu-group" role="group" aria-labelledby={headingId}>
      <h4 id={headingId}>
        <span className="hint">Option group:</span> {title}
      </h4>
      <div className="menu-fields">
        <TextField {...entryField(group, 'name', problems, onChange)} label="Group name" hint="For example Size" maxLength={MENU_LIMITS.name} />
        <TextField {...entryField(group, 'minimum', problems, onChange)} {...CHOICE_COUNT} label="Fewest choices" hint="0 when the group is optional" min={0} />
        <TextField {...entryField(group, 'maximum', problems, onChange)} {...CHOICE_COUNT} label="Most choices" hint="Empty for no limit" min={1} />
        <TextField {...entryField(group, 'free', problems, onChange)} {...CHOICE_COUNT} label="Free choices" hint="How many choices cost nothing" min={0} />
      </div>
      <ul className="menu-option-list" aria-label={`Options of ${title}`}>
        {group.options.map((option, optionIndex) => (
          <li key={option.key} className="menu-option">
            <OptionFields option={option} problems={problems} onChange={(next) => setOption(optionIndex, next)} />
            <EntryControls
              entryKey={option.key}
              name={`option ${named(option.name, 'New option')}`}
              index={optionIndex}
              count={group.options.length}
              removable={group.options.length > 1}
              onMove={(by) =>
                setOptions(...moveOf(group.options, optionIndex, by, (where) => `Option ${named(option.name, 'without a name')} moved to ${where}.`))
              }
              onRemove={() =>
                setOptions(
                  without(group.options, optionIndex),
                  `Option ${named(option.name, 'without a name')} removed from ${title}.`,
                  fieldId(group.key, 'add-option'),
                )
              }
            />
          </li>
        ))}
      </ul>
      <div className="menu-add">
        {group.options.length >= MENU_LIMITS.optionsPerGroup ? (
          <p className="hint" id={fieldId(group.key, 'add-option')} tabIndex={-1}>
            A group has at most {MENU_LIMITS.optionsPerGroup} options.
          </p>
        ) : (
          <button
            type="button"
            className="secondary"
            id={fieldId(group.key, 'add-option')}
            onClick={() => {
              const option = newOption(item);
              setOptions([...group.options, option], `Option added to ${title}.`, fieldId(option.key, 'name'));
            }}
          >
            Add an option<span className="visually-hidden"> to {title}</span>
          </button>
        )}
        <EntryControls entryKey={group.key} name={`option group ${title}`} index={index} count={count} onMove={onMove} onRemove={onRemove} />
      </div>
    </div>
  );
}

function OptionFields({ option, problems, onChange }: { option: OptionModel; problems: ShownProblems; onChange: (next: OptionModel) => void }): ReactNode {
  return (
    <div className="menu-fields">
      <TextField {...entryField(option, 'name', problems, onChange)} label="Option name" maxLength={MENU_LIMITS.name} />
      <TextField {...entryField(option, 'price', problems, onChange)} label="Option price in dollars" inputMode="decimal" maxLength={12} />
      <label className="menu-check">
        <input type="checkbox" checked={option.available} onChange={(event) => onChange({ ...option, available: event.target.checked })} />
        Available
      </label>
      <label className="menu-check">
        <input type="checkbox" checked={option.isDefault} onChange={(event) => onChange({ ...option, isDefault: event.target.checked })} />
        Chosen by default
      </label>
    </div>
  );
}
