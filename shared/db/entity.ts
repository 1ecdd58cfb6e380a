/**
 * One definition per stored entity (the way ElectroDB derives `EntityItem<typeof Book>`, without its bundle):
 * its `entity` tag, its key builder (from shared/db/keys.ts, still the one place prefixes are written) and its
 * attributes as a type parameter, from which the item type and typed operations follow:
 *
 *   export const Balance = defineEntity<BalanceAttributes>()({ entity: 'Balance', key: keys.balance });
 *   type BalanceItem = EntityItem<typeof Balance>;
 *   const balance = await Balance.at(account).get({ consistent: true });     // BalanceItem | undefined
 *   items.push(Balance.at(account).update({ add: { balance: -5 } }, balanceCovers(5)));
 *
 * Types only: nothing is parsed at run time (an item is typed where it is read, `from`, the one cast). `get` is
 * one GetItem; several items are read together through readItems (shared/db/reads.ts) and typed by `from`; writes are TransactItems for transactWrite (shared/db/transactions.ts),
 * so every money write stays in its one TransactWriteItems. Conditions come from shared/db/conditions.ts.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, table } from '#shared/db/client.ts';
import { itemIsNew, Placeholders, type Condition } from '#shared/db/conditions.ts';
import type { Key } from '#shared/db/keys.ts';
import { projectionOf, type StoredItem } from '#shared/db/reads.ts';
import type { TransactItem } from '#shared/db/transactions.ts';
import { retryTransient } from '#shared/db/transient.ts';

/** The stored item of an entity: its key, its tag and its attributes. */
export type EntityItem<E extends { from: (item: never) => unknown }> = NonNullable<ReturnType<E['from']>>;

/** An attribute name of the entity's item (what its conditions may name). */
type AttributeName<Name extends string, Attributes> = keyof (Key & { entity: Name } & Attributes) & string;

/** The attributes of `Attributes` whose values are numbers or sets (what ADD may raise or add elements to), by their value. */
type AddableAttributes<Attributes> = {
  [K in keyof Attributes as NonNullable<Attributes[K]> extends number | ReadonlySet<unknown> ? K : never]?: NonNullable<Attributes[K]>;
};

/** The set attributes of `Attributes` (what DELETE may take elements from), by their value. */
type SetAttributes<Attributes> = {
  [K in keyof Attributes as NonNullable<Attributes[K]> extends ReadonlySet<unknown> ? K : never]?: NonNullable<Attributes[K]>;
};

/** An UpdateItem's clauses, each naming attributes of the entity. */
export interface Changes<Attributes> {
  /** SET attribute = value. */
  set?: Partial<Attributes>;
  /** SET attribute = if_not_exists(attribute, value): written once, kept after. */
  setIfAbsent?: Partial<Attributes>;
  /** ADD attribute value: a number (absent counts as 0), or a set's elements (absent counts as empty). */
  add?: AddableAttributes<Attributes>;
  /** REMOVE attribute. */
  remove?: readonly (keyof Attributes & string)[];
  /** DELETE attribute elements: takes the elements out of a set attribute. */
  deleteFromSet?: SetAttributes<Attributes>;
  /** The update may create the item: it also writes the entity tag (an update never does otherwise). */
  creates?: boolean;
}

/**
 * One kind of TransactItem, its body always present: a non-transactional write sends the same body
 * (`new UpdateCommand(X.at(k).update(...).Update)`), so a condition is written one way only.
 */
type Transact<Kind extends 'Put' | 'Update' | 'Delete' | 'ConditionCheck'> = { [K in Kind]: NonNullable<TransactItem[K]> };

/** The operations on one stored item of an entity, by its key. */
export interface StoredEntity<Name extends string, Attributes> {
  readonly key: Key;
  /** The item (one GetItem, retried when transient), undefined when absent; `attributes` projects. */
  get: (options: { consistent: boolean; attributes?: readonly (keyof Attributes & string)[] }) => Promise<(Key & { entity: Name } & Attributes) | undefined>;
  /** The whole item: key, tag and attributes. */
  item: (attributes: Attributes) => Key & { entity: Name } & Attributes;
  /** Put (replacing any item of the key unless `condition` refuses). */
  put: (attributes: Attributes, condition?: Condition<AttributeName<Name, Attributes>>) => Transact<'Put'>;
  /** Put that only creates (fails when the key is taken). */
  putNew: (attributes: Attributes) => Transact<'Put'>;
  update: (changes: Changes<Attributes>, condition?: Condition<AttributeName<Name, Attributes>>) => Transact<'Update'>;
  delete: (condition?: Condition<AttributeName<Name, Attributes>>) => Transact<'Delete'>;
  conditionCheck: (condition: Condition<AttributeName<Name, Attributes>>) => Transact<'ConditionCheck'>;
}

export interface Entity<Name extends string, Attributes, Args extends unknown[]> {
  readonly entity: Name;
  readonly key: (...args: Args) => Key;
  at: (...args: Args) => StoredEntity<Name, Attributes>;
  /** The typed view of an item read by this entity's key (in a batch of several entities' keys): the one cast. */
  from: (item: StoredItem | undefined) => (Key & { entity: Name } & Attributes) | undefined;
}

/** `condition` rendered into a request's ConditionExpression, with everything else the request's placeholders hold. */
function expression(placeholders: Placeholders, condition: Condition | undefined) {
  const ConditionExpression = condition?.render(placeholders);
  return { ...(ConditionExpression === undefined ? {} : { ConditionExpression }), ...placeholders.expressionAttributes() };
}

function updateExpression<Attributes>(entity: string, changes: Changes<Attributes>, placeholders: Placeholders): string {
  const entries = (values: object | undefined) => Object.entries(values ?? {}).filter(([, value]) => value !== undefined);
  const set = [
    ...(changes.creates ? [`${placeholders.name('entity')} = ${placeholders.value(entity)}`] : []),
    ...entries(changes.set).map(([name, value]) => `${placeholders.name(name)} = ${placeholders.value(value)}`),
    ...entries(changes.setIfAbsent).map(
      ([name, value]) => `${placeholders.name(name)} = if_not_exists(${placeholders.name(name)}, ${placeholders.value(value)})`,
    ),
  ];
  const add = entries(changes.add).map(([name, value]) => `${placeholders.name(name)} ${placeholders.value(value)}`);
  const remove = (changes.remove ?? []).map((name) => placeholders.name(name));
  const deleted = entries(changes.deleteFromSet).map(([name, value]) => `${placeholders.name(name)} ${placeholders.value(value)}`);
  const clauses = [
    add.length > 0 ? `ADD ${add.join(', ')}` : '',
    set.length > 0 ? `SET ${set.join(', ')}` : '',
    remove.length > 0 ? `REMOVE ${remove.join(', ')}` : '',
    deleted.length > 0 ? `DELETE ${deleted.join(', ')}` : '',
  ];
  return clauses.filter(Boolean).join(' ');
}

/**
 * Defines an entity. Curried so the attributes are named and the rest inferred:
 * `defineEntity<Attributes>()({ entity, key })`.
 */
export function defineEntity<Attributes extends object>() {
  return <const Name extends string, Args extends unknown[]>(definition: { entity: Name; key: (...args: Args) => Key }): Entity<Name, Attributes, Args> => {
    type Item = Key & { entity: Name } & Attributes;
    const from = (item: StoredItem | undefined) => item as Item | undefined;
    const at = (...args: Args): StoredEntity<Name, Attributes> => {
      const key = definition.key(...args);
      const item = (attributes: Attributes): Item => ({ ...attributes, pk: key.pk, sk: key.sk, entity: definition.entity });
      const put = (attributes: Attributes, condition?: Condition): Transact<'Put'> => {
        const placeholders = new Placeholders();
        return { Put: { TableName: table(), Item: item(attributes), ...expression(placeholders, condition) } };
      };
      return {
        key,
        get: async (options) => {
          const projection = options.attributes && projectionOf(['pk', 'sk', ...options.attributes]);
          const result = await retryTransient(() =>
            db().send(new GetCommand({ TableName: table(), Key: key, ConsistentRead: options.consistent, ...projection })),
          );
          return from(result.Item);
        },
        item,
        put,
        putNew: (attributes) => put(attributes, itemIsNew),
        update: (changes, condition) => {
          const placeholders = new Placeholders();
          const UpdateExpression = updateExpression(definition.entity, changes, placeholders);
          return { Update: { TableName: table(), Key: key, UpdateExpression, ...expression(placeholders, condition) } };
        },
        delete: (condition) => ({ Delete: { TableName: table(), Key: key, ...expression(new Placeholders(), condition) } }),
        conditionCheck: (condition) => {
          const placeholders = new Placeholders();
          return {
            ConditionCheck: { TableName: table(), Key: key, ConditionExpression: condition.render(placeholders), ...placeholders.expressionAttributes() },
          };
        },
      };
    };
    return { entity: definition.entity, key: definition.key, at, from };
  };
}
