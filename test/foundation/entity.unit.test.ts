import { beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { and, balanceCovers, counterAllows, differs, equals, itemIsNew, oneOf, or, sizeBelow, versionIs, type Condition } from '#shared/db/conditions.ts';
import { defineEntity, type EntityItem } from '#shared/db/entity.ts';
import { keys } from '#shared/db/keys.ts';

/**
 * defineEntity (shared/db/entity.ts) and the named condition fragments (shared/db/conditions.ts): the item type
 * derived from one definition, and the commands its operations build (what transactWrite sends as they are).
 */
interface Attributes {
  account: string;
  balance: number;
  version: number;
  state?: string;
  uuids?: string[];
}
const Sample = defineEntity<Attributes>()({ entity: 'Sample', key: keys.balance });

beforeAll(() => {
  process.env.TABLE_NAME ??= 'unit-table';
});

describe('defineEntity', () => {
  it('derives the item type: key, tag and attributes', () => {
    expectTypeOf<EntityItem<typeof Sample>>().toEqualTypeOf<{ pk: string; sk: string } & { entity: 'Sample' } & Attributes>();
    expectTypeOf(Sample.at).parameters.toEqualTypeOf<[account: string]>();
    expectTypeOf(Sample.at('a').get).returns.resolves.toEqualTypeOf<EntityItem<typeof Sample> | undefined>();
    expectTypeOf(Sample.from).returns.toEqualTypeOf<EntityItem<typeof Sample> | undefined>();
  });

  it('refuses, at compile time, attributes and conditions the entity does not have', () => {
    // @ts-expect-error: no such attribute
    Sample.at('a').update({ set: { balanse: 1 } });
    // @ts-expect-error: ADD takes numeric attributes only
    Sample.at('a').update({ add: { account: 1 } });
    // @ts-expect-error: the condition names an attribute the entity lacks
    Sample.at('a').conditionCheck(equals('status', 'x'));
    expectTypeOf(Sample.at('a').conditionCheck).parameter(0).toEqualTypeOf<Condition<'pk' | 'sk' | 'entity' | keyof Attributes>>();
  });

  it('puts the whole item, tagged, and a new one only when its key is free', () => {
    expect(Sample.at('giftcard:1:2').putNew({ account: 'giftcard:1:2', balance: 0, version: 0 })).toEqual({
      Put: {
        TableName: 'unit-table',
        Item: { pk: 'BALANCE#giftcard:1:2', sk: 'BALANCE', entity: 'Sample', account: 'giftcard:1:2', balance: 0, version: 0 },
        ConditionExpression: 'attribute_not_exists(#a0)',
        ExpressionAttributeNames: { '#a0': 'pk' },
      },
    });
  });

  it('builds an update whose clauses and condition share one set of placeholders', () => {
    const update = Sample.at('a').update(
      { add: { balance: -5, version: 1 }, set: { account: 'a' }, setIfAbsent: { state: 'open' }, remove: ['uuids'], creates: true },
      and(balanceCovers(5), versionIs(3)),
    );
    expect(update).toEqual({
      Update: {
        TableName: 'unit-table',
        Key: { pk: 'BALANCE#a', sk: 'BALANCE' },
        UpdateExpression: 'ADD #a3 :v3, #a4 :v4 SET #a0 = :v0, #a1 = :v1, #a2 = if_not_exists(#a2, :v2) REMOVE #a5',
        ConditionExpression: '(#a3 >= :v5) AND (#a4 = :v6)',
        ExpressionAttributeNames: { '#a0': 'entity', '#a1': 'account', '#a2': 'state', '#a3': 'balance', '#a4': 'version', '#a5': 'uuids' },
        ExpressionAttributeValues: { ':v0': 'Sample', ':v1': 'a', ':v2': 'open', ':v3': -5, ':v4': 1, ':v5': 5, ':v6': 3 },
      },
    });
  });

  it('adds elements to a set and deletes them (ADD and DELETE of a set attribute)', () => {
    const Sets = defineEntity<{ uuids?: Set<string>; version: number }>()({ entity: 'Sets', key: keys.balance });
    expect(Sets.at('a').update({ add: { uuids: new Set(['x']), version: 1 }, deleteFromSet: { uuids: new Set(['y']) } }).Update).toMatchObject({
      UpdateExpression: 'ADD #a0 :v0, #a1 :v1 DELETE #a0 :v2',
      ExpressionAttributeNames: { '#a0': 'uuids', '#a1': 'version' },
      ExpressionAttributeValues: { ':v0': new Set(['x']), ':v1': 1, ':v2': new Set(['y']) },
    });
    // @ts-expect-error: DELETE takes set attributes only
    Sets.at('a').update({ deleteFromSet: { version: 1 } });
  });

  it('leaves out what a command does not use (DynamoDB refuses empty maps)', () => {
    expect(Sample.at('a').delete()).toEqual({ Delete: { TableName: 'unit-table', Key: { pk: 'BALANCE#a', sk: 'BALANCE' } } });
  });
});

describe('named condition fragments', () => {
  it('versionIs(0) admits an item never versioned', () => {
    expect(Sample.at('a').conditionCheck(versionIs(0)).ConditionCheck).toMatchObject({
      ConditionExpression: '(attribute_not_exists(#a0)) OR (#a0 = :v0)',
      ExpressionAttributeNames: { '#a0': 'version' },
      ExpressionAttributeValues: { ':v0': 0 },
    });
  });

  it('counterAllows admits an unwritten counter only when the amount alone fits the limit', () => {
    expect(Sample.at('a').conditionCheck(counterAllows('balance', 100, 30)).ConditionCheck).toMatchObject({
      ConditionExpression: '(attribute_not_exists(#a0)) OR (#a0 <= :v0)',
      ExpressionAttributeValues: { ':v0': 70 },
    });
    expect(Sample.at('a').conditionCheck(counterAllows('balance', 100, 130)).ConditionCheck).toMatchObject({
      ConditionExpression: '#a0 <= :v0',
      ExpressionAttributeValues: { ':v0': -30 },
    });
  });

  it('composes without collisions, the same attribute named once', () => {
    const condition = or(itemIsNew, and(differs('state', 'a'), differs('state', 'b')), oneOf('state', ['x', 'y']), sizeBelow('uuids', 10));
    expect(Sample.at('a').conditionCheck(condition).ConditionCheck).toMatchObject({
      ConditionExpression: '(attribute_not_exists(#a0)) OR ((#a1 <> :v0) AND (#a1 <> :v1)) OR (#a1 IN (:v2, :v3)) OR (size(#a2) < :v4)',
      ExpressionAttributeNames: { '#a0': 'pk', '#a1': 'state', '#a2': 'uuids' },
      ExpressionAttributeValues: { ':v0': 'a', ':v1': 'b', ':v2': 'x', ':v3': 'y', ':v4': 10 },
    });
  });
});
