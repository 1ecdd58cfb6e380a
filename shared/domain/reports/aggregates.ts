/**
 * The merchant reports, kept as aggregates by the table's stream (docs/events.md, "Reports"): the stream function
 * hands every inserted record to `countReportRecords`, which adds what the record contributes to the day x location
 * row of its merchant, to the day's all-locations row and (a gift card movement) to the month's liability row, in ONE
 * transaction with a `counted` marker keyed by the record's own key. A re-delivered or replayed record finds its
 * marker and changes nothing, so each record is counted exactly once; nothing is ever scanned.
 *
 * What counts (each inserted item once, its day the UTC date of its `created_at`):
 * - a user-side ledger entry (`LedgerEntry`): its amount under `<account kind>:<movement kind>`, so the money
 *   figures are the ledger's own sums by construction; its location is the order's (reference `order_uuid`) or the
 *   POS gift card addition's (`addition_uuid`), else the `none` row;
 * - a completed order (`Order`): one order, its spend (sales) and tip, at its location;
 * - a user's loyalty totals at a merchant (`LoyaltyStats`, written with the user's first order there): a new member;
 * - a reward (`Reward`, written when earned): a reward earned and its value.
 */
import { TTL_ATTRIBUTE } from '#shared/db/table-definition.ts';
import { defineEntity } from '#shared/db/entity.ts';
import { keys, padId, type Key } from '#shared/db/keys.ts';
import { readItems, type StoredItem } from '#shared/db/reads.ts';
import { transactWrite, type TransactItem } from '#shared/db/transactions.ts';
import { parseAccount } from '#shared/domain/money/accounts.ts';

/** The entities whose inserted items the reports count (the stream mapping's filter names them too: infra). */
export const REPORTED_ENTITIES = ['LedgerEntry', 'Order', 'LoyaltyStats', 'Reward'] as const;

/** The row of movements without a location (an app's gift card order, a merchant's credit grant, a reward). */
export const NO_LOCATION = 'none';
/** The row of the merchant's day at every location (the sum of its location rows). */
export const ALL_LOCATIONS = 'all';

/** Account kinds whose balances are the merchant's outstanding gift card liability (value held, and held for an email). */
export const LIABILITY_ACCOUNT_KINDS: readonly string[] = ['giftcard', 'held'];

/**
 * How long a counted marker is kept: far longer than the stream keeps a record (24 hours), so no re-delivery or
 * replay of the stream can outlive its marker.
 */
const COUNTED_MARKER_DAYS = 14;

/** A figure's attribute name: a ledger sum `ledger:<account kind>:<movement kind>`, an amount in cents or a count. */
export type FigureName = `${'ledger:'}${string}` | `${string}_amount` | `${string}_count`;
/** Figures of a row: integers (cents or counts) by name. */
export type Figures = { [name: FigureName]: number };

export const LEDGER_FIGURE_PREFIX = 'ledger:';
/** The change of the merchant's gift card liability on an all-locations day row, and on a month row. */
export const LIABILITY_CHANGE = 'liability_change_amount' as const;

interface ReportRowAttributes {
  merchant_id: number;
  date: string;
  location: string;
  updated_at: string;
}

/** One day x location row of a merchant's figures (`keys.reportDay`): its figures are attributes ADDed by the counter. */
export const ReportDay = defineEntity<ReportRowAttributes & Figures>()({ entity: 'ReportDay', key: keys.reportDay });
/** One month's change of a merchant's gift card liability (`keys.reportMonth`). */
export const ReportMonth = defineEntity<{ merchant_id: number; month: string; liability_change_amount: number; updated_at: string }>()({
  entity: 'ReportMonth',
  key: keys.reportMonth,
});
/** A stream record the reports counted (`keys.reportCounted`): only ever created, and then it refuses a second count. */
export const ReportCounted = defineEntity<{ record_pk: string; record_sk: string; counted_at: string; ttl: number }>()({
  entity: 'ReportCounted',
  key: keys.reportCounted,
});

/** What one record adds to its merchant's day. */
export interface Contribution {
  record: Key;
  merchantId: number;
  date: string;
  /** The location's id, or undefined: the `none` row (after `locateContributions`). */
  locationId?: number;
  /** Where the location comes from when the record does not carry it. */
  locatedBy?: { orderUuid: string } | { additionUuid: string };
  figures: Figures;
  liabilityChange: number;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.length > 0 ? value : undefined);
const integer = (value: unknown): number => (typeof value === 'number' && Number.isSafeInteger(value) ? value : 0);
const idOf = (value: unknown): number | undefined => (typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : undefined);

/** The UTC day of an ISO 8601 instant (`YYYY-MM-DD`), undefined for anything else. */
function dayOf(createdAt: unknown): string | undefined {
  const value = text(createdAt);
  return value && /^\d{4}-\d{2}-\d{2}T/.test(value) ? value.slice(0, 10) : undefined;
}

function ledgerContribution(image: StoredItem, record: Key, date: string): Contribution | undefined {
  const account = text(image.account);
  const kind = text(image.kind);
  if (!account || !kind) return undefined;
  const { kind: accountKind, merchantId } = parseAccount(account);
  if (!Number.isSafeInteger(merchantId)) return undefined;
  const amount = integer(image.amount);
  const reference = (image.reference ?? {}) as Record<string, unknown>;
  const orderUuid = text(reference.order_uuid);
  const additionUuid = text(reference.addition_uuid);
  return {
    record,
    merchantId,
    date,
    locatedBy: orderUuid ? { orderUuid } : additionUuid ? { additionUuid } : undefined,
    figures: { [`${LEDGER_FIGURE_PREFIX}${accountKind}:${kind}`]: amount },
    liabilityChange: LIABILITY_ACCOUNT_KINDS.includes(accountKind) ? amount : 0,
  };
}

/** What an inserted item adds to the reports, undefined for an item they do not count. */
export function contributionOf(image: StoredItem): Contribution | undefined {
  const record = { pk: String(image.pk), sk: String(image.sk) };
  const date = dayOf(image.created_at);
  if (!date) return undefined;
  const merchantId = idOf(image.merchant_id);
  switch (image.entity) {
    case 'LedgerEntry':
      return ledgerContribution(image, record, date);
    case 'Order':
      if (!merchantId) return undefined;
      return {
        record,
        merchantId,
        date,
        locationId: idOf(image.location_id),
        figures: { orders_count: 1, sales_amount: integer(image.spend_amount), tips_amount: integer(image.tip_amount) },
        liabilityChange: 0,
      };
    case 'LoyaltyStats':
      return merchantId ? { record, merchantId, date, figures: { loyalty_members_count: 1 }, liabilityChange: 0 } : undefined;
    case 'Reward':
      return merchantId
        ? { record, merchantId, date, figures: { rewards_earned_count: 1, rewards_earned_amount: integer(image.value_amount) }, liabilityChange: 0 }
        : undefined;
    default:
      return undefined;
  }
}

/** Gives each contribution its location: the order's or the gift card addition's, read in one batch (those of this batch first). */
async function locateContributions(contributions: Contribution[], images: StoredItem[]): Promise<void> {
  const known = new Map<string, number | undefined>();
  const keyId = (key: Key) => `${key.pk}\u0000${key.sk}`;
  for (const image of images) {
    if (image.entity === 'Order' || image.entity === 'GiftCardAddition')
      known.set(keyId({ pk: String(image.pk), sk: String(image.sk) }), idOf(image.location_id));
  }
  const keyOf = (contribution: Contribution): Key | undefined => {
    const by = contribution.locatedBy;
    if (!by) return undefined;
    return 'orderUuid' in by ? keys.order(by.orderUuid) : keys.giftCardAddition(by.additionUuid);
  };
  const missing = [
    ...new Map(
      contributions
        .flatMap((contribution) => keyOf(contribution) ?? [])
        .filter((key) => !known.has(keyId(key)))
        .map((key) => [keyId(key), key]),
    ).values(),
  ];
  if (missing.length > 0) {
    const items = await readItems(missing, { consistent: true, attributes: ['location_id'] });
    missing.forEach((key, index) => known.set(keyId(key), idOf(items[index]?.location_id)));
  }
  for (const contribution of contributions) {
    const key = keyOf(contribution);
    if (key) contribution.locationId = known.get(keyId(key));
  }
}

/** The row label of a location id (zero-padded: rows of a day sort by location). */
export function locationLabel(locationId: number | undefined): string {
  return locationId === undefined ? NO_LOCATION : padId(locationId);
}

function countItems(contribution: Contribution, now: string): TransactItem[] {
  const { merchantId, date } = contribution;
  const set = { merchant_id: merchantId, date, updated_at: now };
  const items: TransactItem[] = [
    ReportCounted.at(contribution.record).putNew({
      record_pk: contribution.record.pk,
      record_sk: contribution.record.sk,
      counted_at: now,
      [TTL_ATTRIBUTE]: Math.floor(Date.parse(now) / 1000) + COUNTED_MARKER_DAYS * 24 * 3600,
    }),
    ReportDay.at(merchantId, date, locationLabel(contribution.locationId)).update({
      add: contribution.figures,
      set: { ...set, location: locationLabel(contribution.locationId) },
      creates: true,
    }),
    ReportDay.at(merchantId, date, ALL_LOCATIONS).update({
      add: { ...contribution.figures, ...(contribution.liabilityChange !== 0 ? { [LIABILITY_CHANGE]: contribution.liabilityChange } : {}) },
      set: { ...set, location: ALL_LOCATIONS },
      creates: true,
    }),
  ];
  if (contribution.liabilityChange !== 0) {
    const month = date.slice(0, 7);
    items.push(
      ReportMonth.at(merchantId, month).update({
        add: { liability_change_amount: contribution.liabilityChange },
        set: { merchant_id: merchantId, month, updated_at: now },
        creates: true,
      }),
    );
  }
  return items;
}

export interface CountOutcome {
  counted: number;
  /** Records already counted (a re-delivery, a replay). */
  skipped: number;
}

/**
 * Counts the inserted items of a stream batch into the reports, each exactly once (its marker and its figures
 * commit together). One record at a time: the rows of one merchant's day are shared, so parallel transactions
 * would only conflict with each other. Throws when a transaction keeps losing races, so the batch is retried
 * (the markers keep what committed from counting twice).
 */
export async function countReportRecords(images: StoredItem[], now = new Date().toISOString()): Promise<CountOutcome> {
  const contributions = images.flatMap((image) => contributionOf(image) ?? []);
  const outcome: CountOutcome = { counted: 0, skipped: 0 };
  if (contributions.length === 0) return outcome;
  await locateContributions(contributions, images);
  for (const contribution of contributions) {
    const result = await transactWrite(() => countItems(contribution, now));
    if (result.committed) outcome.counted += 1;
    // The marker is the first item: only its guard can refuse (the rows are unconditional ADDs).
    else if (result.reasons[0] === 'ConditionalCheckFailed') outcome.skipped += 1;
    else throw new Error(`report count of ${contribution.record.pk} ${contribution.record.sk} not committed: ${result.reasons.join(',')}`);
  }
  return outcome;
}
