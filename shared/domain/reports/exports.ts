/**
 * CSV exports of a merchant's orders and ledger for a bounded range of UTC days (docs/merchant-api.md, "Reports and
 * exports"), each read through an index by merchant and time, never a Scan:
 * - orders: each of the merchant's locations' orders by creation time (gsi2, what the POS's order list reads);
 * - ledger: the merchant's user-side ledger entries of each month by time (gsi1, `keys.merchantLedgerIndex`). Each
 *   row is one entry with its other account (`contra_account`): the platform leg is the same transfer, negated.
 * At most MAX_EXPORT_ROWS rows: a range holding more is refused (422 `export_too_large`), never cut short silently.
 */
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { db, table } from '#shared/db/client.ts';
import { keys } from '#shared/db/keys.ts';
import { unprocessable } from '#shared/errors.ts';
import { listMerchantLocations } from '#shared/domain/merchants/locations.ts';
import { LedgerEntry } from '#shared/domain/money/accounts.ts';
import { defineEntity } from '#shared/db/entity.ts';
import { csvText, type CsvCell } from '#shared/domain/csv.ts';

/** The most rows one export answers. */
export const MAX_EXPORT_ROWS = 10_000;

export interface DayRange {
  from: string;
  to: string;
}

function tooLarge(): never {
  throw unprocessable('export', 'to', `The range holds more than ${MAX_EXPORT_ROWS} rows; export a shorter range.`, 'export_too_large');
}

/** Every item of a Query up to `cap`, refusing the export past it (reads at most cap + 1 items). */
async function queryCapped(input: QueryCommandInput, cap: number): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(new QueryCommand({ ...input, Limit: cap - items.length + 1, ExclusiveStartKey: startKey }));
    items.push(...(page.Items ?? []));
    if (items.length > cap) tooLarge();
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}

/** The months (`YYYY-MM`) the range touches. */
function monthsOf(range: DayRange): string[] {
  const months: string[] = [];
  for (let month = range.from.slice(0, 7); month <= range.to.slice(0, 7);) {
    months.push(month);
    const next = new Date(`${month}-01T00:00:00Z`);
    next.setUTCMonth(next.getUTCMonth() + 1);
    month = next.toISOString().slice(0, 7);
  }
  return months;
}

/**
 * The columns of a stored order the export writes (orders/record.ts owns the record; nothing outside the money path
 * imports it, so the export names what it reads).
 */
const ExportedOrder = defineEntity<{
  uuid: string;
  merchant_id: number;
  location_id: number;
  state: string;
  spend_amount: number;
  tip_amount: number;
  tax_amount: number;
  exemption_amount: number;
  applied_discount_amount: number;
  gift_card_total_amount: number;
  charged_amount: number;
  credit_earned_amount: number;
  created_at: string;
  refunded_at: string | null;
  cashier: string | null;
  register: string | null;
  identifier_from_merchant: string | null;
}>()({ entity: 'Order', key: keys.order });

export const ORDER_COLUMNS = [
  'order_uuid',
  'created_at',
  'location_id',
  'state',
  'spend_amount',
  'tip_amount',
  'tax_amount',
  'exemption_amount',
  'applied_discount_amount',
  'gift_card_total_amount',
  'charged_amount',
  'credit_earned_amount',
  'refunded_at',
  'cashier',
  'register',
  'identifier_from_merchant',
] as const;

/** The merchant's orders made in the range (UTC days), oldest first, as CSV. */
export async function exportOrders(merchantId: number, range: DayRange): Promise<string> {
  const locations = await listMerchantLocations(merchantId);
  const orders: NonNullable<ReturnType<typeof ExportedOrder.from>>[] = [];
  for (const location of locations) {
    const partition = keys.locationOrders(location.location_id);
    const items = await queryCapped(
      {
        TableName: table(),
        IndexName: 'gsi2',
        KeyConditionExpression: 'gsi2pk = :pk AND gsi2sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': partition.gsi2pk, ':from': `${partition.skPrefix}${range.from}`, ':to': `${partition.skPrefix}${range.to}~` },
      },
      MAX_EXPORT_ROWS - orders.length,
    );
    orders.push(...items.flatMap((item) => ExportedOrder.from(item) ?? []).filter((order) => order.merchant_id === merchantId));
  }
  orders.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.uuid.localeCompare(b.uuid));
  const rows: CsvCell[][] = orders.map((order) => [
    order.uuid,
    order.created_at,
    order.location_id,
    order.state,
    order.spend_amount,
    order.tip_amount,
    order.tax_amount,
    order.exemption_amount,
    order.applied_discount_amount,
    order.gift_card_total_amount,
    order.charged_amount,
    order.credit_earned_amount,
    order.refunded_at,
    order.cashier,
    order.register,
    order.identifier_from_merchant,
  ]);
  return csvText(ORDER_COLUMNS, rows);
}

export const LEDGER_COLUMNS = ['created_at', 'account', 'entry_id', 'kind', 'amount', 'contra_account', 'transfer_id', 'reference'] as const;

/** The merchant's ledger entries made in the range (UTC days), oldest first, as CSV. */
export async function exportLedger(merchantId: number, range: DayRange): Promise<string> {
  const entries: NonNullable<ReturnType<typeof LedgerEntry.from>>[] = [];
  for (const month of monthsOf(range)) {
    const items = await queryCapped(
      {
        TableName: table(),
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': keys.merchantLedgerMonth(merchantId, month).gsi1pk, ':from': range.from, ':to': `${range.to}~` },
      },
      MAX_EXPORT_ROWS - entries.length,
    );
    entries.push(...items.flatMap((item) => LedgerEntry.from(item) ?? []));
  }
  const rows: CsvCell[][] = entries.map((entry) => [
    entry.created_at,
    entry.account,
    entry.entry_id,
    entry.kind,
    entry.amount,
    entry.contra_account,
    entry.transfer_id,
    JSON.stringify(entry.reference ?? {}),
  ]);
  return csvText(LEDGER_COLUMNS, rows);
}
