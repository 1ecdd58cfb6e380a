/**
 * Cost that must not grow with history: a page of a user's orders and of an app's locations at 10
 * and at 10,000 records (page 1, page 50 reached by following Link, and page 50 asked for by number),
 * and rewards / campaign reads on a small table and on the table after 20,000 more items (a Scan
 * would grow with it).
 *
 * The 10,000 records are written fast with BatchWriteItem, each a copy of a real item the domain
 * wrote (an order completed through the API, a location created by the domain library) with its
 * identifiers replaced, so the bench follows whatever item format the owning module defines.
 */
import { BatchWriteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, table } from '#shared/db/client.ts';
import { keys } from '#shared/db/keys.ts';
import { newUuid } from '#shared/db/ids.ts';
import { createMerchant } from '#shared/domain/merchants/merchants.ts';
import { createApp } from '#shared/domain/identity/apps.ts';
import { isoSeconds } from '#shared/time.ts';
import { median, round } from '../harness/measure.ts';
import { completeOrder, completeOrders, createMany, type Api } from '../scenarios/scenarios.ts';
import { createLocationFor, type World } from '../harness/seed.ts';

export interface PageCost {
  label: string;
  records: number;
  page: number;
  how: 'first' | 'link' | 'page-number';
  status: number;
  items: number;
  roundTrips: number | null;
  capacityUnits: number | null;
  latencyMs: number;
  /** The next-page URL as the API gave it (shows whether a cursor is carried). */
  nextLink?: string;
}

export interface ScanCheck {
  label: string;
  itemsInTableBefore: string;
  capacityBefore: number | null;
  capacityAfter: number | null;
  roundTripsBefore: number | null;
  roundTripsAfter: number | null;
}

export interface HistoryResult {
  records: number;
  orders: PageCost[] | { unavailable: string };
  locations: PageCost[] | { unavailable: string };
  scans: ScanCheck[];
}

const PAGES_DEEP = 50;
const REPEATS = 5;

async function batchWrite(items: Record<string, unknown>[], progress: (message: string) => void, label: string): Promise<void> {
  const batches: Record<string, unknown>[][] = [];
  for (let index = 0; index < items.length; index += 25) batches.push(items.slice(index, index + 25));
  let written = 0;
  await createMany(batches.length, 6, async (index) => {
    let pending = batches[index]!.map((Item) => ({ PutRequest: { Item } }));
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 10) throw new Error('BatchWriteItem kept returning unprocessed items');
      const result = await db().send(new BatchWriteCommand({ RequestItems: { [table()]: pending } }));
      pending = (result.UnprocessedItems?.[table()] ?? []) as typeof pending;
    }
    written += batches[index]!.length;
    if (written % 2500 < 25) progress(`${label}: ${written}/${items.length} written`);
  });
}

function replaceEverywhere(item: Record<string, unknown>, replacements: [string, string][]): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(item)) {
    copy[name] = typeof value === 'string' ? replacements.reduce((text, [from, to]) => text.split(from).join(to), value) : value;
  }
  return copy;
}

function linkNext(headers: Headers): string | undefined {
  return /<([^>]+)>\s*;\s*rel="?next"?/.exec(headers.get('link') ?? '')?.[1];
}

function statsOf(headers: Headers): { roundTrips: number | null; capacityUnits: number | null } {
  const trips = headers.get('x-dynamodb-round-trips');
  const units = headers.get('x-dynamodb-capacity-units');
  return { roundTrips: trips === null ? null : Number(trips), capacityUnits: units === null ? null : Number(units) };
}

/** Requests `url` REPEATS times; the stats of the last, the median latency. */
async function measurePage(
  api: Api,
  url: string,
  token: string | undefined,
  label: string,
  records: number,
  page: number,
  how: PageCost['how'],
): Promise<PageCost> {
  const latencies: number[] = [];
  let last: Awaited<ReturnType<Api['call']>> | undefined;
  for (let repeat = 0; repeat < REPEATS; repeat++) {
    const before = performance.now();
    last = await api.call('GET', url, { token });
    latencies.push(performance.now() - before);
  }
  return {
    label,
    records,
    page,
    how,
    status: last!.status,
    items: Array.isArray(last!.body) ? last!.body.length : 0,
    ...statsOf(last!.headers),
    latencyMs: round(median(latencies)),
    nextLink: linkNext(last!.headers),
  };
}

/** Page 1, page 50 following Link from page 1, and page 50 by number. */
async function measurePaging(api: Api, firstUrl: string, token: string | undefined, label: string, records: number): Promise<PageCost[]> {
  const results = [await measurePage(api, firstUrl, token, label, records, 1, 'first')];
  if (records < PAGES_DEEP * 10) return results;
  let url: string | undefined = firstUrl;
  for (let page = 1; page < PAGES_DEEP && url; page++) {
    const response = await api.call('GET', url, { token });
    url = response.status === 200 ? linkNext(response.headers) : undefined;
  }
  if (url) results.push(await measurePage(api, url, token, label, records, PAGES_DEEP, 'link'));
  const separator = firstUrl.includes('?') ? '&' : '?';
  results.push(await measurePage(api, `${firstUrl}${separator}page=${PAGES_DEEP}`, token, label, records, PAGES_DEEP, 'page-number'));
  return results;
}

async function seedOrderHistory(api: Api, world: World, records: number, progress: (message: string) => void): Promise<PageCost[]> {
  const fewUser = world.users[world.users.length - 2]!;
  const manyUser = world.users[world.users.length - 1]!;
  await completeOrders(api, world, [fewUser], 10);
  const template = await completeOrder(api, world, manyUser);
  const raw = (await db().send(new GetCommand({ TableName: table(), Key: keys.order(template) }))).Item;
  if (!raw) throw new Error(`the completed order ${template} is not at keys.order(uuid); the bench cannot copy its format`);
  const createdAt = String(raw.created_at);
  const startMs = Date.parse(createdAt);
  const copies = Array.from({ length: records - 1 }, (_, index) => {
    const uuid = newUuid();
    // Older than the template, one minute apart, so the real order stays newest.
    const at = isoSeconds(new Date(startMs - (index + 1) * 60_000));
    return replaceEverywhere(raw, [
      [template, uuid],
      [createdAt, at],
    ]);
  });
  await batchWrite(copies, progress, 'orders');
  return [
    ...(await measurePaging(api, '/v15/apps/orders', fewUser.token, "user's orders", 10)),
    ...(await measurePaging(api, '/v15/apps/orders', manyUser.token, "user's orders", records)),
  ];
}

async function seedLocationHistory(api: Api, world: World, records: number, progress: (message: string) => void): Promise<PageCost[]> {
  const merchant = await createMerchant({ name: 'Bench Chain', username: `bench-chain-${newUuid()}@example.com`, password: 'bench-password' });
  const { app } = await createApp({ name: 'Bench Chain App', global: false, merchantIds: [merchant.merchant_id] });
  const templateId = await createLocationFor(merchant.merchant_id);
  const raw = (await db().send(new GetCommand({ TableName: table(), Key: keys.location(templateId) }))).Item;
  if (!raw) throw new Error('the template location is not at keys.location(id)');
  // Reserve a block of ids from the same counter nextId() uses, so later creates never collide.
  const counter = await db().send(
    new UpdateCommand({
      TableName: table(),
      Key: keys.counter('location'),
      UpdateExpression: 'ADD #value :count',
      ExpressionAttributeNames: { '#value': 'value' },
      ExpressionAttributeValues: { ':count': records - 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const lastId = Number(counter.Attributes?.value);
  const copies = Array.from({ length: records - 1 }, (_, index) => {
    const locationId = lastId - index;
    return {
      ...raw,
      ...keys.location(locationId),
      ...(raw.gsi1pk !== undefined ? keys.merchantLocationsIndex(merchant.merchant_id, locationId) : {}),
      ...(raw.gsi2pk !== undefined ? keys.allLocationsIndex(locationId) : {}),
      location_id: locationId,
      street_address: `${locationId} Main Street`,
    };
  });
  await batchWrite(copies, progress, 'locations');
  return [
    ...(await measurePaging(api, `/v15/apps/${world.appId}/locations`, undefined, "app's locations", 10)),
    ...(await measurePaging(api, `/v15/apps/${app.app_id}/locations`, undefined, "app's locations", records)),
  ];
}

async function singleRequestStats(api: Api, path: string, token: string): Promise<{ roundTrips: number | null; capacityUnits: number | null }> {
  const response = await api.call('GET', path, { token });
  if (response.status !== 200) return { roundTrips: null, capacityUnits: null };
  return statsOf(response.headers);
}

export async function measureHistory(options: { api: Api; world: World; records: number; progress: (message: string) => void }): Promise<HistoryResult> {
  const { api, world, records, progress } = options;
  const user = world.users[0]!;
  const scanProbes =
    world.campaignId === undefined
      ? []
      : [
          { label: 'List rewards at a merchant', path: `/v15/merchants/${world.merchantId}/rewards` },
          { label: 'Campaign representation', path: `/v15/campaigns/${world.campaignId}/spend_based_loyalty_v1` },
        ];
  const before = await Promise.all(scanProbes.map((probe) => singleRequestStats(api, probe.path, user.token)));

  let orders: HistoryResult['orders'];
  if (world.locationId === undefined) {
    orders = { unavailable: 'no location was seeded' };
  } else {
    try {
      orders = await seedOrderHistory(api, world, records, progress);
    } catch (error) {
      orders = { unavailable: (error as Error).message.slice(0, 300) };
    }
  }

  let locations: HistoryResult['locations'];
  try {
    locations = await seedLocationHistory(api, world, records, progress);
  } catch (error) {
    locations = { unavailable: (error as Error).message.slice(0, 300) };
  }

  const after = await Promise.all(scanProbes.map((probe) => singleRequestStats(api, probe.path, user.token)));
  const scans = scanProbes.map((probe, index) => ({
    label: probe.label,
    itemsInTableBefore: `before / after ${records * 2} more items`,
    capacityBefore: before[index]!.capacityUnits,
    capacityAfter: after[index]!.capacityUnits,
    roundTripsBefore: before[index]!.roundTrips,
    roundTripsAfter: after[index]!.roundTrips,
  }));
  return { records, orders, locations, scans };
}
