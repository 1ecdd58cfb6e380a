import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, table } from '#shared/db/client.ts';
import { keys } from '#shared/db/keys.ts';
import { queryAll } from '#shared/db/reads.ts';
import { createItem } from '#shared/db/transactions.ts';
import { locationChangeItem, type LocationItem, type LocationSummary } from '#shared/domain/merchants/locations.ts';

/**
 * Every location as a summary, in change order (A28, GET /v14/locations): apps keep a copy and resume
 * from the last page's Link to pick up only what changed since. The position is (updated_at, id) of the
 * last row; a row comes after it when it changed later, or at the same second with a larger id.
 */
export const LOCATION_SUMMARIES_PAGE_SIZE = 100;

/** The largest id a position can name in the feed's sort key (ids are 12 digits there). */
const MAX_POSITION_ID = 999_999_999_999;

export interface SummaryPosition {
  since: string;
  lastId: number;
}

/**
 * One page after `position` (from the start without one; the next page starts at its last row's
 * (updated_at, id)): one Query of the change feed
 * (`LOCATION_CHANGES`, sorted by `<updated_at>#<id>`), `sk > position`, `Limit` = the page size. The read
 * is one page however many locations exist; nothing is filtered or sorted here.
 */
export async function locationSummaries(position: SummaryPosition | undefined, pageSize = LOCATION_SUMMARIES_PAGE_SIZE): Promise<LocationSummary[]> {
  const result = await db().send(
    new QueryCommand({
      TableName: table(),
      KeyConditionExpression: position ? 'pk = :pk AND sk > :after' : 'pk = :pk',
      ExpressionAttributeValues: {
        ':pk': keys.locationChanges().pk,
        ...(position ? { ':after': keys.locationChangeSortKey(position.since, Math.min(position.lastId, MAX_POSITION_ID)) } : {}),
      },
      Limit: pageSize,
    }),
  );
  return (result.Items ?? []) as unknown as LocationSummary[];
}

/** The row as iOS and Android read it: a hidden location carries only what tells the app to drop it. */
export function serializeSummary(location: LocationSummary) {
  if (!location.shown) return { location: { id: location.location_id, shown: false as const, updated_at: location.updated_at } };
  return {
    location: {
      id: location.location_id,
      categories: location.categories,
      latitude: location.latitude,
      longitude: location.longitude,
      merchant_id: location.merchant_id,
      merchant_name: location.merchant_name ?? '',
      name: location.name ?? location.merchant_name ?? '',
      shown: true as const,
      updated_at: location.updated_at,
    },
  };
}

/** Every location, through the all-locations index (gsi2): an operator's read, never a request path. */
export async function allLocationItems(): Promise<LocationItem[]> {
  const all = keys.allLocations();
  return (await queryAll({
    TableName: table(),
    IndexName: 'gsi2',
    KeyConditionExpression: 'gsi2pk = :pk AND begins_with(gsi2sk, :prefix)',
    ExpressionAttributeValues: { ':pk': all.gsi2pk, ':prefix': all.skPrefix },
  })) as unknown as LocationItem[];
}

/**
 * Operators, once, for a table whose locations were created before the change feed existed (`npm run admin
 * -- backfill-location-changes`): writes each location's feed row, never replacing one already there (a
 * location written since has its own). Reads every location through the all-locations index (gsi2), an
 * operator's read, never a request path. Idempotent: a second run writes nothing.
 */
export async function backfillLocationChanges(): Promise<{ locations: number; written: number }> {
  const locations = await allLocationItems();
  let written = 0;
  for (const location of locations) if (await createItem(locationChangeItem(location), { resend: true })) written += 1;
  return { locations: locations.length, written };
}
