/**
 * Ids without a single counter item (docs/scale.md "Id counters"): the kinds customers create come from
 * ID_SHARDS counter items, so they stay unique integers below 2^53 under concurrency but stop following
 * creation order; the lists of them (a user's cards and addresses) order by creation time instead.
 * Catalogue kinds keep one counter and creation order (a stored locations Link resumes after an id).
 */
import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { db, table } from '#shared/db/client.ts';
import { keys } from '#shared/db/keys.ts';
import { ID_SHARDS, SHARDED_ID_KINDS, nextId, reserveIds } from '#shared/db/ids.ts';
import { getUser } from '#shared/domain/identity/users.ts';
import { useTestApi } from '../support/api.ts';
import { appFixture, userFixture } from '../support/fixtures.ts';
import { uniqueNonce } from '../support/cards.ts';
import { runAdmin } from '../support/admin.ts';

const api = useTestApi();
let app: Awaited<ReturnType<typeof appFixture>>;

beforeAll(async () => {
  app = await appFixture();
});

const distinct = (values: readonly number[]) => new Set(values).size === values.length;
const isId = (id: unknown) => Number.isSafeInteger(id) && (id as number) > 0 && (id as number) < 2 ** 53;

/** A copy of one of the user's items under another id, created `laterMs` after the original. */
async function copyWithId(
  key: { pk: string; sk: string },
  rekey: (id: number) => { pk: string; sk: string },
  idField: string,
  id: number,
  laterMs: number,
  changes: Record<string, unknown> = {},
) {
  const original = (await db().send(new GetCommand({ TableName: table(), Key: key, ConsistentRead: true }))).Item!;
  const createdAtMs = (original.created_at_ms as number) + laterMs;
  await db().send(
    new PutCommand({
      TableName: table(),
      Item: {
        ...original,
        ...rekey(id),
        ...changes,
        [idField]: id,
        created_at_ms: createdAtMs,
        created_at: new Date(createdAtMs).toISOString().replace(/\.\d{3}Z$/, '+00:00'),
      },
    }),
  );
}

describe('ids', () => {
  it('50 concurrent sign-ups (POST /v15/users) get 50 distinct user ids and payment token ids, integers below 2^53', async () => {
    const signUps = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        api.call('POST', '/v15/users', {
          body: {
            api_key: app.apiKey,
            user: { email: `concurrent-${index}-${randomUUID()}@example.com`, first_name: 'Con', last_name: 'Current', terms_accepted: true },
            permission_keynames: ['read_user_basic_info'],
          },
        }),
      ),
    );
    expect(
      signUps.map((signUp) => signUp.status),
      signUps.find((signUp) => signUp.status !== 200)?.text,
    ).toEqual(new Array(50).fill(200));
    const userIds = signUps.map((signUp) => signUp.body.user.id as number);
    expect(distinct(userIds)).toBe(true);
    expect(userIds.every(isId)).toBe(true);
    // Each token reaches its own user: no two sign-ups were written over one another.
    const shown = await Promise.all(signUps.map((signUp) => api.call('GET', '/v15/users', { token: signUp.body.access_token.token })));
    expect(shown.map((response) => response.body.user.id)).toEqual(userIds);
    const tokenIds = (await Promise.all(userIds.map((id) => getUser(id)))).map((user) => user!.payment_token_id);
    expect(distinct(tokenIds)).toBe(true);
    expect(tokenIds.every(isId)).toBe(true);
  });

  it('every customer-created kind draws from several counter items: 50 concurrent ids are distinct and spread over the shards', async () => {
    expect(SHARDED_ID_KINDS).toEqual(expect.arrayContaining(['user', 'payment_token', 'credit_card', 'user_address', 'claim', 'earned_reward']));
    for (const kind of SHARDED_ID_KINDS) {
      const ids = await Promise.all(Array.from({ length: 50 }, () => nextId(kind)));
      expect(distinct(ids), kind).toBe(true);
      expect(ids.every(isId), kind).toBe(true);
      // The shard is the id modulo ID_SHARDS: 50 random draws over 16 shards leave fewer than 9 only by vanishing chance.
      expect(new Set(ids.map((id) => id % ID_SHARDS)).size, kind).toBeGreaterThan(ID_SHARDS / 2);
    }
  });

  it('a catalogue kind keeps one counter: its ids follow creation order', async () => {
    const ids: number[] = [];
    for (let index = 0; index < 5; index++) ids.push(await nextId('location'));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(distinct(ids)).toBe(true);
  });

  it('a reserved block never overlaps ids handed out before or after it', async () => {
    const before = await Promise.all(Array.from({ length: 40 }, () => nextId('ticket')));
    const block = await reserveIds('ticket', 100);
    const after = await Promise.all(Array.from({ length: 40 }, () => nextId('ticket')));
    expect(block).toHaveLength(100);
    expect(distinct([...before, ...block, ...after])).toBe(true);
  });
});

describe('npm run admin -- shard-id-counters (a table with ids from the single counters)', () => {
  it('starts every shard above the legacy counter, so no new id repeats an old one; run again, it never lowers a shard', async () => {
    const kind = 'permissions_request';
    const shardValues = async () =>
      Promise.all(
        Array.from({ length: ID_SHARDS }, async (_, shard) =>
          Number((await db().send(new GetCommand({ TableName: table(), Key: keys.counter(kind, shard), ConsistentRead: true }))).Item?.value ?? 0),
        ),
      );
    // Ids the single counter handed out: up to `legacy`, above anything the shards have reached.
    const legacy = Math.max(...(await shardValues())) * ID_SHARDS + 5_000 + 7;
    await db().send(new PutCommand({ TableName: table(), Item: { ...keys.counter(kind), entity: 'Counter', value: legacy } }));

    const first = await runAdmin(['shard-id-counters'], api);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout).raised[kind]).toEqual({ legacy, floor: Math.ceil(legacy / ID_SHARDS) });
    const raised = await shardValues();
    expect(raised.every((value) => value >= Math.ceil(legacy / ID_SHARDS))).toBe(true);
    const ids = await Promise.all(Array.from({ length: 50 }, () => nextId(kind)));
    expect(ids.every((id) => id > legacy)).toBe(true);

    // A second run never lowers a shard that has moved on (it would hand out the ids above the floor again).
    const afterIds = await shardValues();
    expect((await runAdmin(['shard-id-counters'], api)).code).toBe(0);
    const again = await shardValues();
    expect(again.every((value, shard) => value >= afterIds[shard]!)).toBe(true);
  });
});

describe('lists of sharded kinds order by creation, not by id', () => {
  it("a user's addresses: oldest first, whatever their ids", async () => {
    const { user, token } = await userFixture(app.app.app_id);
    const created = await api.call('POST', '/v15/user_addresses', {
      token,
      body: { user_address: { street_address: '1 Main St', locality: 'Boston', region: 'MA', postal_code: '02110', latitude: 42.36, longitude: -71.06 } },
    });
    expect(created.status).toBe(200);
    const firstId = created.body.user_address.id as number;
    // Two newer addresses with smaller ids than the first (as sharded counters may hand out), the newest with the smallest.
    await copyWithId(keys.userAddress(user.user_id, firstId), (id) => keys.userAddress(user.user_id, id), 'address_id', 2, 5, { nickname: 'second' });
    await copyWithId(keys.userAddress(user.user_id, firstId), (id) => keys.userAddress(user.user_id, id), 'address_id', 1, 10, { nickname: 'third' });
    const listed = await api.call('GET', '/v15/user_addresses', { token });
    expect(listed.status).toBe(200);
    expect(listed.body.map((entry: any) => entry.user_address.id)).toEqual([firstId, 2, 1]);
  });

  it("a user's cards: oldest first; deleting the promoted card promotes the newest remaining one, not the largest id", async () => {
    const { user, token } = await userFixture(app.app.app_id);
    const created = await api.call('POST', '/v15/credit_cards', { token, body: { credit_card: { gateway_payment_nonce: uniqueNonce() } } });
    expect(created.status, created.text).toBe(200);
    const firstId = created.body.credit_card.id as number;
    expect(created.body.credit_card.promoted).toBe(true);
    const card = (id: number) => keys.creditCard(user.user_id, id);
    await copyWithId(card(firstId), card, 'card_id', 2, 5, { last_4: '2222', fingerprint: `fp-${randomUUID()}` });
    await copyWithId(card(firstId), card, 'card_id', 1, 10, { last_4: '1111', fingerprint: `fp-${randomUUID()}` });
    const listed = await api.call('GET', '/v15/credit_cards', { token });
    expect(listed.body.map((entry: any) => entry.credit_card.id)).toEqual([firstId, 2, 1]);

    const deleted = await api.call('DELETE', `/v14/credit_cards/${firstId}`, { token });
    expect(deleted.status, deleted.text).toBe(200);
    const remaining = await api.call('GET', '/v15/credit_cards', { token });
    expect(remaining.body.map((entry: any) => [entry.credit_card.id, entry.credit_card.promoted])).toEqual([
      [2, false],
      [1, true],
    ]);
  });
});
