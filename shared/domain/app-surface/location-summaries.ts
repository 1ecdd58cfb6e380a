import { queryAll } from '#shared/db/reads.ts';
import { table } from '#shared/db/client.ts';
import { keys } from '#shared/db/keys.ts';
import type { LocationItem } from '#shared/domain/locations.ts';

/**
 * Every location as a summary, in change order (A28, GET /v14/locations): apps keep a copy and resume
 * from the last page's Link to pick up only what changed since. The position is (updated_at, id) of the
 * last row; a row comes after it when it changed later, or at the same second with a larger id.
 */
export const LOCATION_SUMMARIES_PAGE_SIZE = 100;

export interface SummaryPosition {
  since: string;
  lastId: number;
}

export interface SummaryPage {
  locations: LocationItem[];
  /** Where the next page starts (the last row's position); undefined when the page is empty. */
  next: SummaryPosition | undefined;
}

function after(location: LocationItem, position: SummaryPosition): boolean {
  return location.updated_at > position.since || (location.updated_at === position.since && location.location_id > position.lastId);
}

/**
 * One page after `position` (from the start without one). The changed rows are chosen in DynamoDB (a
 * filter on the every-location partition, gsi2 `LOCATIONS`), then ordered here: the read covers the
 * whole partition (see docs/data-model.md: the cost grows with the location count, the answer does not).
 */
export async function locationSummaries(position: SummaryPosition | undefined, pageSize = LOCATION_SUMMARIES_PAGE_SIZE): Promise<SummaryPage> {
  const partition = keys.allLocations();
  const items = await queryAll({
    TableName: table(),
    IndexName: 'gsi2',
    KeyConditionExpression: 'gsi2pk = :pk AND begins_with(gsi2sk, :prefix)',
    ...(position
      ? {
          FilterExpression: 'updated_at > :since OR (updated_at = :since AND location_id > :last)',
          ExpressionAttributeValues: { ':pk': partition.gsi2pk, ':prefix': partition.skPrefix, ':since': position.since, ':last': position.lastId },
        }
      : { ExpressionAttributeValues: { ':pk': partition.gsi2pk, ':prefix': partition.skPrefix } }),
  });
  const changed = (items as unknown as LocationItem[])
    .filter((location) => !position || after(location, position))
    .sort((a, b) => (a.updated_at < b.updated_at ? -1 : a.updated_at > b.updated_at ? 1 : a.location_id - b.location_id))
    .slice(0, pageSize);
  const last = changed.at(-1);
  return { locations: changed, next: last ? { since: last.updated_at, lastId: last.location_id } : undefined };
}

/** The row as iOS and Android read it: a hidden location carries only what tells the app to drop it. */
export function serializeSummary(location: LocationItem) {
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
