/**
 * Named condition fragments (as Powertools' DynamoDBPersistenceLayer names its conditions): each says one rule
 * (`itemIsNew`, `versionIs(n)`, `balanceCovers(amount)`, `stateIs(s)`...), composed with `and` / `or`, and is
 * rendered only when its request is built, through that request's `Placeholders`, so no two fragments (nor an
 * update's clauses) ever share a `#name` or `:value`. A condition carries the attributes it names in its type,
 * so an entity's operations (shared/db/entity.ts) refuse one that names an attribute the entity does not have.
 */

/** The `#name` and `:value` placeholders of ONE request: every fragment and update clause takes its own here. */
export class Placeholders {
  readonly names: Record<string, string> = {};
  readonly values: Record<string, unknown> = {};
  private readonly byAttribute = new Map<string, string>();
  private valueCount = 0;

  /** The placeholder of an attribute name (one per attribute: reserved words such as `state`, `ttl` need no thought). */
  name(attribute: string): string {
    let placeholder = this.byAttribute.get(attribute);
    if (placeholder === undefined) {
      placeholder = `#a${this.byAttribute.size}`;
      this.byAttribute.set(attribute, placeholder);
      this.names[placeholder] = attribute;
    }
    return placeholder;
  }

  /** A fresh placeholder holding `value`. */
  value(value: unknown): string {
    const placeholder = `:v${this.valueCount++}`;
    this.values[placeholder] = value;
    return placeholder;
  }

  /** The request's ExpressionAttributeNames and -Values, absent when empty (DynamoDB refuses empty maps). */
  expressionAttributes(): { ExpressionAttributeNames?: Record<string, string>; ExpressionAttributeValues?: Record<string, unknown> } {
    return {
      ...(this.byAttribute.size > 0 ? { ExpressionAttributeNames: this.names } : {}),
      ...(this.valueCount > 0 ? { ExpressionAttributeValues: this.values } : {}),
    };
  }
}

/** A condition naming the attributes `Attribute` (a type only: operations check it against their entity). */
export interface Condition<Attribute extends string = string> {
  readonly attributes: readonly Attribute[];
  readonly render: (placeholders: Placeholders) => string;
}

const fragment = <Attribute extends string>(attributes: readonly Attribute[], render: (placeholders: Placeholders) => string): Condition<Attribute> => ({
  attributes,
  render,
});

const comparison =
  (operator: string) =>
  <Attribute extends string>(attribute: Attribute, value: unknown): Condition<Attribute> =>
    fragment([attribute], (p) => `${p.name(attribute)} ${operator} ${p.value(value)}`);

export const attributeMissing = <Attribute extends string>(attribute: Attribute) => fragment([attribute], (p) => `attribute_not_exists(${p.name(attribute)})`);
export const attributeExists = <Attribute extends string>(attribute: Attribute) => fragment([attribute], (p) => `attribute_exists(${p.name(attribute)})`);
export const equals = comparison('=');
export const differs = comparison('<>');
export const below = comparison('<');
export const atMost = comparison('<=');
export const above = comparison('>');
export const atLeast = comparison('>=');

/** The attribute holds one of `values`. */
export const oneOf = <Attribute extends string>(attribute: Attribute, values: readonly unknown[]) =>
  fragment([attribute], (p) => `${p.name(attribute)} IN (${values.map((value) => p.value(value)).join(', ')})`);

/** A list or set attribute holds fewer than `count` elements. */
export const sizeBelow = <Attribute extends string>(attribute: Attribute, count: number) =>
  fragment([attribute], (p) => `size(${p.name(attribute)}) < ${p.value(count)}`);

/** Every condition holds. */
export function and<Attribute extends string>(...conditions: Condition<Attribute>[]): Condition<Attribute> {
  return fragment(
    conditions.flatMap((condition) => condition.attributes),
    (p) => conditions.map((condition) => `(${condition.render(p)})`).join(' AND '),
  );
}

/** At least one condition holds. */
export function or<Attribute extends string>(...conditions: Condition<Attribute>[]): Condition<Attribute> {
  return fragment(
    conditions.flatMap((condition) => condition.attributes),
    (p) => conditions.map((condition) => `(${condition.render(p)})`).join(' OR '),
  );
}

/** Creates only: no item has this key yet (every new item is written so). */
export const itemIsNew = attributeMissing('pk');
/** Changes only an item that exists (an update would otherwise create one). */
export const itemExists = attributeExists('pk');
/** Optimistic concurrency: the item is at `version` (0: never written, or written at 0). */
export const versionIs = (version: number): Condition<'version'> =>
  version === 0 ? or(attributeMissing('version'), equals('version', 0)) : equals('version', version);
/** A debit leaves the balance at zero or more. */
export const balanceCovers = (amount: number): Condition<'balance'> => atLeast('balance', amount);
/** The item's state machine is at `state`. */
export const stateIs = (state: string): Condition<'state'> => equals('state', state);

/**
 * A counter has room for `amount` more under `limit` (charge limits, the merchant credit budget): at most
 * `limit - amount` so far; a counter not yet written admits any amount up to the limit (decided here, as both are known).
 */
export const counterAllows = <Attribute extends string>(attribute: Attribute, limit: number, amount: number): Condition<Attribute> => {
  const roomLeft = atMost(attribute, limit - amount);
  return amount <= limit ? or(attributeMissing(attribute), roomLeft) : roomLeft;
};
