/**
 * GET /v15/events and replays over an audience whose events of several types interleave (docs/events.md):
 * every page is the stored bodies byte for byte, a `types` filter pages through the other types without
 * losing or repeating an event, and a replay queues exactly the endpoint's types after the given event,
 * in order. The events come from real changes (cards added and deleted through the domain library, many
 * at once), written by the same transactions as in production.
 */
import { randomUUID } from 'node:crypto';
import { BatchGetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '#shared/auth/tokens.ts';
import { db, table } from '#shared/db/client.ts';
import { EVENT_INDEX_SHARDS, keys } from '#shared/db/keys.ts';
import { deleteCreditCard } from '#shared/domain/cards/credit-cards.ts';
import { createUser } from '#shared/domain/identity/users.ts';
import { useTestApi } from '../support/api.ts';
import { cardFixture } from '../support/cards.ts';
import { appFixture } from '../support/fixtures.ts';
import { nextLink } from '../support/locations.ts';
import { createEndpoint, listAllEvents, startEventPipeline, startReceiver, waitUntil, type ListedEvent, type Receiver } from '../support/webhooks.ts';

process.env.WEBHOOK_TIME_SCALE = '0.02';
const USERS = 24;
const CARDS_PER_USER = 3;
const DELETED_PER_USER = 2;
const CREATED = USERS * CARDS_PER_USER;
const DEACTIVATED = USERS * DELETED_PER_USER;

const api = useTestApi();
let pipeline: Awaited<ReturnType<typeof startEventPipeline>>;
let receiver: Receiver;
let endpoint: { id: string };
let appToken: string;
let otherAppToken: string;
let all: ListedEvent[];
let appId: number;

beforeAll(async () => {
  pipeline = await startEventPipeline(api);
  const { app } = await appFixture({ global: true });
  const other = await appFixture({ global: true });
  appId = app.app_id;
  appToken = await issueToken({ subject: 'app', appId: app.app_id });
  otherAppToken = await issueToken({ subject: 'app', appId: other.app.app_id });
  receiver = await startReceiver();
  endpoint = await createEndpoint(api, appToken, receiver.url, ['credit_card.deactivated']);
  // Registered through the app (its cards' events are the app's); no password: nothing here signs in.
  const users = await Promise.all(
    Array.from({ length: USERS }, (_, index) =>
      createUser(app.app_id, { email: `pages-${index}-${randomUUID()}@example.com`, first_name: 'Page', last_name: 'Reader' }),
    ),
  );
  // Every user at once: each adds its cards, then deletes some, so creations and deactivations interleave.
  await Promise.all(
    users.map(async (user) => {
      const cards = [];
      for (let card = 0; card < CARDS_PER_USER; card++) cards.push(await cardFixture(user.user_id));
      for (const { card } of cards.slice(0, DELETED_PER_USER)) await deleteCreditCard(user.user_id, card.card_id);
    }),
  );
  all = await listAllEvents(api, appToken);
}, 120_000);

afterAll(async () => {
  await pipeline?.stop();
  await receiver?.close();
});

const ids = (events: readonly { id: string }[]) => events.map((event) => event.id);
const sorted = (values: readonly string[]) => [...values].sort();

/** The stored event items (index keys and bodies) of these ids. */
async function storedEvents(eventIds: readonly string[]): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  for (let start = 0; start < eventIds.length; start += 100) {
    const read = await db().send(
      new BatchGetCommand({ RequestItems: { [table()]: { Keys: eventIds.slice(start, start + 100).map((id) => keys.event(id)) } } }),
    );
    items.push(...(read.Responses?.[table()] ?? []));
  }
  return items;
}

describe("an app's interleaved events", () => {
  it("spreads the audience's events over its index shards, each resource's events in one shard", async () => {
    const items = await storedEvents(ids(all));
    const shards = new Set(items.map((item) => item.gsi1pk));
    const partitions = keys.audienceEventPartitions(`app:${appId}`);
    expect(partitions).toHaveLength(EVENT_INDEX_SHARDS + 1);
    expect([...shards].every((partition) => partitions.slice(0, EVENT_INDEX_SHARDS).includes(String(partition)))).toBe(true);
    // 72 cards over 8 shards: all in one or two would mean no spreading.
    expect(shards.size).toBeGreaterThanOrEqual(Math.min(4, EVENT_INDEX_SHARDS));
    const shardOfResource = new Map<string, unknown>();
    for (const item of items) {
      const resource = String(item.resource_id);
      expect(shardOfResource.get(resource) ?? item.gsi1pk).toBe(item.gsi1pk);
      shardOfResource.set(resource, item.gsi1pk);
    }
  });

  it('lists each event once, in id order, 50 a page, each page the stored bodies byte for byte', async () => {
    expect(all).toHaveLength(CREATED + DEACTIVATED);
    expect(new Set(ids(all)).size).toBe(all.length);
    expect(ids(all)).toEqual(sorted(ids(all)));
    // A resource's events in sequence: a card's creation before its deactivation.
    const seen = new Map<string, number>();
    for (const event of all) {
      expect(event.sequence).toBe((seen.get(event.resource.id) ?? 0) + 1);
      seen.set(event.resource.id, event.sequence);
    }

    const first = await api.call('GET', '/v15/events', { token: appToken });
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(50);
    const bodies = new Map((await storedEvents(ids(all).slice(0, 50))).map((item) => [item.event_id as string, item.body_json as string]));
    expect(first.text).toBe(
      `[${ids(all)
        .slice(0, 50)
        .map((id) => bodies.get(id))
        .join(',')}]`,
    );
    expect(first.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(nextLink(first.headers)).toContain(`after=${all[49]!.id}`);
  });

  it('filters by type across pages without losing or repeating an event', async () => {
    for (const type of ['credit_card.deactivated', 'credit_card.created']) {
      const listed = await listAllEvents(api, appToken, type);
      expect(ids(listed)).toEqual(ids(all.filter((event) => event.type === type)));
    }
    const both = await listAllEvents(api, appToken, 'credit_card.created,credit_card.deactivated');
    expect(ids(both)).toEqual(ids(all));
    // Resuming after any event lists exactly the later ones.
    const middle = all[Math.floor(all.length / 2)]!.id;
    const after = await api.call('GET', `/v15/events?after=${middle}&types=credit_card.deactivated`, { token: appToken });
    expect(ids(after.body.map((item: { event: ListedEvent }) => item.event))).toEqual(
      ids(all.filter((event) => event.id > middle && event.type === 'credit_card.deactivated')).slice(0, 50),
    );
  });

  it("replays the endpoint's types after an event, skipping the other types in between, in order and with the same bodies", async () => {
    const deactivated = all.filter((event) => event.type === 'credit_card.deactivated');
    await waitUntil(() => receiver.delivered().length === DEACTIVATED, 'the first deliveries', 30_000);
    const before = receiver.received.length;
    const firstBodies = new Map(receiver.received.map((delivery) => [JSON.parse(delivery.body).event.id as string, delivery.body]));
    const replayed = await api.call('POST', `/v15/webhook_endpoints/${endpoint.id}/replays`, { token: appToken, body: { replay: { after: all[0]!.id } } });
    expect(replayed.status, replayed.text).toBe(200);
    const expected = ids(deactivated.filter((event) => event.id > all[0]!.id));
    expect(replayed.body.replay.queued).toBe(expected.length);
    await waitUntil(() => receiver.received.length === before + expected.length, 'the replay', 30_000);
    const again = receiver.received.slice(before);
    // Per resource in order (one FIFO group per card); every event once, the same bytes as first delivered.
    expect(sorted(again.map((delivery) => JSON.parse(delivery.body).event.id))).toEqual(expected);
    for (const delivery of again) expect(delivery.body).toBe(firstBodies.get(JSON.parse(delivery.body).event.id));
  });

  it('still lists, in order, events indexed before the shards existed (the one partition per audience)', async () => {
    // Two events moved back to the partition every event of an audience had before sharding.
    const moved = [all[3]!.id, all[60]!.id];
    for (const id of moved) {
      await db().send(
        new UpdateCommand({
          TableName: table(),
          Key: keys.event(id),
          UpdateExpression: 'SET gsi1pk = :legacy',
          ExpressionAttributeValues: { ':legacy': keys.audienceEventPartitions(`app:${appId}`).at(-1) },
        }),
      );
    }
    expect(ids(await listAllEvents(api, appToken))).toEqual(ids(all));
    expect(ids(await listAllEvents(api, appToken, 'credit_card.deactivated'))).toEqual(ids(all.filter((event) => event.type === 'credit_card.deactivated')));
  });

  it('fills each page in order when its events crowd one shard (a busy resource: its events share one)', async () => {
    // The first 60 events and the last 50 moved into one shard: a page's events need not spread.
    const shard = keys.audienceEventPartitions(`app:${appId}`)[0];
    const crowded = [...ids(all).slice(0, 60), ...ids(all).slice(-50)];
    for (const id of crowded) {
      await db().send(
        new UpdateCommand({ TableName: table(), Key: keys.event(id), UpdateExpression: 'SET gsi1pk = :shard', ExpressionAttributeValues: { ':shard': shard } }),
      );
    }
    const first = await api.call('GET', '/v15/events', { token: appToken });
    expect(ids(first.body.map((item: { event: ListedEvent }) => item.event))).toEqual(ids(all).slice(0, 50));
    expect(nextLink(first.headers)).toContain(`after=${all[49]!.id}`);
    expect(ids(await listAllEvents(api, appToken))).toEqual(ids(all));
    // The last page: exactly the last 50, and nothing past it.
    const last = await api.call('GET', `/v15/events?after=${all.at(-51)!.id}`, { token: appToken });
    expect(ids(last.body.map((item: { event: ListedEvent }) => item.event))).toEqual(ids(all).slice(-50));
    const past = nextLink(last.headers);
    expect(past).toBeDefined();
    expect((await api.call('GET', past!, { token: appToken })).status).toBe(204);
  });

  it('lists nothing of them to another app, and another app cannot replay them', async () => {
    expect((await api.call('GET', '/v15/events', { token: otherAppToken })).status).toBe(204);
    expect(
      (await api.call('POST', `/v15/webhook_endpoints/${endpoint.id}/replays`, { token: otherAppToken, body: { replay: { after: all[0]!.id } } })).status,
    ).toBe(404);
  });
});
