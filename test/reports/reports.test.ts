/**
 * Reports kept by the event stream and the CSV exports (issue 38; docs/merchant-api.md, "Reports and exports"):
 * after real money operations through HTTP (the POS's and the app's, and the management API's refund, detached
 * refund, credit grants and the expiry a customer's read writes), once the stream has counted them, the report's
 * figures are the ledger's own sums (read as the audit reads the ledger), and handing the whole stream to the stream
 * function again, twice, changes nothing. Each route for each role; the CSV exports parse back, formula cells defused.
 */
import { randomInt, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { roleTokens, staffToken } from '../support/staff.ts';
import { useTestApi } from '../support/api.ts';
import { merchantFixture } from '../support/fixtures.ts';
import { clientPayload } from '../support/client-payloads.ts';
import { grantCredit, passGrantExpiry } from '../support/credit-grants.ts';
import { loadGiftCard, orderWorld, placeOrder, worldBalances, type OrderWorld } from '../support/money.ts';
import { startEventPipeline, tableStreamRecords } from '../support/webhooks.ts';
import { streamHandler } from '../../functions/events-stream.ts';
import { table } from '#shared/db/client.ts';
import { keys } from '#shared/db/keys.ts';
import { readItems, scanAll } from '#shared/db/reads.ts';
import { CONTRA_ENTRY, parseAccount } from '#shared/domain/money/accounts.ts';
import { countReportRecords } from '#shared/domain/reports/aggregates.ts';

const api = useTestApi();
let pipeline: Awaited<ReturnType<typeof startEventPipeline>>;

beforeAll(async () => {
  pipeline = await startEventPipeline(api);
});

afterAll(async () => {
  await pipeline?.stop();
});

const today = () => new Date().toISOString().slice(0, 10);
const yesterday = () => new Date(Date.now() - 24 * 3600 * 1000).toISOString().slice(0, 10);

/** The ledger items of every account, read as the audit reads them (`auditLedger`: one consistent scan). */
async function ledgerItems() {
  return scanAll({
    TableName: table(),
    FilterExpression: 'entity IN (:balance, :entry, :contra)',
    ExpressionAttributeValues: { ':balance': 'Balance', ':entry': 'LedgerEntry', ':contra': CONTRA_ENTRY },
    ConsistentRead: true,
  });
}

/** The merchant's user-side ledger sums per UTC day, by `<account kind>:<movement kind>`, and its gift card liability. */
async function ledgerSums(merchantId: number) {
  const byDay = new Map<string, Record<string, number>>();
  let liability = 0;
  const entries: Record<string, any>[] = [];
  for (const item of await ledgerItems()) {
    const account = parseAccount(String(item.account));
    if (account.merchantId !== merchantId) continue;
    if (item.entity === 'Balance' && ['giftcard', 'held'].includes(account.kind)) liability += Number(item.balance);
    if (item.entity !== 'LedgerEntry') continue;
    entries.push(item);
    const day = String(item.created_at).slice(0, 10);
    const sums = byDay.get(day) ?? {};
    const name = `${account.kind}:${String(item.kind)}`;
    sums[name] = (sums[name] ?? 0) + Number(item.amount);
    byDay.set(day, sums);
  }
  return { byDay, liability, entries };
}

async function merchantOrders(merchantId: number) {
  const items = await scanAll({
    TableName: table(),
    FilterExpression: 'entity = :order AND merchant_id = :merchant',
    ExpressionAttributeValues: { ':order': 'Order', ':merchant': merchantId },
  });
  return items;
}

/** Waits until the stream has counted every ledger entry and order of the merchant (each has its counted marker). */
async function streamCounted(merchantId: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const records = [...(await ledgerSums(merchantId)).entries, ...(await merchantOrders(merchantId))];
    const markers = await readItems(
      records.map((record) => keys.reportCounted({ pk: String(record.pk), sk: String(record.sk) })),
      { consistent: true },
    );
    if (markers.every(Boolean)) return;
    if (Date.now() > deadline) throw new Error(`the stream did not count ${markers.filter((marker) => !marker).length} records`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const reportPath = (merchantId: number, query: string) => `/v15/merchants/${merchantId}/reports/daily?${query}`;

/** Parses RFC 4180 CSV (quoted cells, doubled quotes, CRLF lines) back into rows. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (quoted && char === '"' && text[index + 1] === '"') {
      cell += '"';
      index++;
    } else if (quoted) {
      if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') {
      quoted = true;
    } else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\r' && text[index + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      index++;
    } else {
      cell += char;
    }
  }
  return rows;
}

const CASHIER = '=HYPERLINK("https://evil.example","click"), now';

const detachedRequest = clientPayload('csharp_v15_detached_refunds__create.json').request_body.detached_refund;

/** The management API's money operations of the day (owner and manager tokens of the merchant), and what they moved. */
async function managementMoney(world: OrderWorld, merchantId: number) {
  const roles = await roleTokens(world.app.app_id, merchantId);
  const base = `/v15/merchants/${merchantId}`;
  const once = () => ({ 'Idempotency-Key': randomUUID() });
  const managed = await placeOrder(api, world, { spend_amount: 2000, tip_amount: 150 });
  expect(managed.status, managed.text).toBe(200);
  // Detached credit for everything the card was charged here: the refund below must take part of it back.
  const detachedAmount = (await worldBalances(world)).card;
  const detached = await api.call('POST', `${base}/detached_refunds`, {
    token: roles.owner,
    headers: once(),
    body: {
      detached_refund: {
        ...detachedRequest,
        credit_amount: detachedAmount,
        location_id: world.location.location_id,
        payment_token_data: world.user.user.payment_token_data,
        manager_confirmation: null,
        identifier_from_merchant: null,
      },
    },
  });
  expect(detached.status, detached.text).toBe(200);
  const refund = await api.call('POST', `${base}/orders/${managed.body.order.uuid}/refund`, { token: roles.manager, headers: once() });
  expect(refund.status, refund.text).toBe(200);
  const grant = (token: string, body: Record<string, unknown>) =>
    api.call('POST', `${base}/customers/${world.user.user.user_id}/credit_grants`, { token, headers: once(), body: { credit_grant: body } });
  expect((await grant(roles.manager, { value_amount: 250 })).status).toBe(200);
  // The shortest grant's time passes; the customer's read (any role) expires it before showing the balance.
  expect((await grant(roles.owner, { value_amount: 120, duration_in_seconds: 60 })).status).toBe(200);
  await passGrantExpiry(world, 1);
  const shown = await api.call('GET', `${base}/customers/${world.user.user.user_id}`, { token: roles.staff });
  expect(shown.status, shown.text).toBe(200);
  return { managedOrder: managed.body.order, detachedAmount, granted: 250 + 120, expired: 120 };
}

describe('reports kept by the event stream', () => {
  let world: OrderWorld;
  let merchantId: number;
  let owner: string;
  let orderUuid: string;
  let management: Awaited<ReturnType<typeof managementMoney>>;

  beforeAll(async () => {
    world = await orderWorld({ credit: 300 });
    merchantId = world.merchant.merchant.merchant_id;
    owner = await staffToken(world.app.app_id, merchantId, 'owner');
    // Gift card value loaded at a POS (a location), an order with a tip paying with it, credit and the card, its
    // refund, a credit grant (no location).
    const load = await loadGiftCard(api, world.merchant.token, merchantId, {
      payment_token_data: world.user.user.payment_token_data,
      value_amount: 1000,
      location_id: world.location.location_id,
    });
    expect(load.status).toBe(200);
    const kept = await placeOrder(api, world, { spend_amount: 1500, tip_amount: 200, cashier: CASHIER, register: '+1 register' });
    expect(kept.status).toBe(200);
    const refunded = await placeOrder(api, world, { spend_amount: 1200, applied_discount_amount: 300, tip_amount: 100 });
    expect(refunded.status).toBe(200);
    orderUuid = kept.body.order.uuid;
    const refund = await api.call('POST', `/v15/orders/${refunded.body.order.uuid}/refund`, { token: world.merchant.token });
    expect(refund.status).toBe(200);
    expect((await grantCredit(api, world, { value_amount: 500 })).status).toBe(204);
    management = await managementMoney(world, merchantId);
    await streamCounted(merchantId);
  }, 60_000);

  it("answers the ledger's own sums per day, the liability as of the day, and the same after the stream is replayed twice", async () => {
    const from = yesterday();
    const read = async () => {
      const response = await api.call('GET', reportPath(merchantId, `from=${from}&to=${today()}`), { token: owner });
      expect(response.status).toBe(200);
      return response.body.daily_report;
    };
    const report = await read();
    const ledger = await ledgerSums(merchantId);
    expect(report.days.map((day: { date: string }) => day.date)).toEqual([from, today()]);
    for (const day of report.days) {
      const sums = Object.fromEntries(Object.entries(ledger.byDay.get(day.date) ?? {}).filter(([, sum]) => sum !== 0));
      expect(day.all_locations.ledger).toEqual(sums);
      // The location rows add up to the day's total.
      const byLocation: Record<string, number> = {};
      for (const row of day.locations)
        for (const [name, sum] of Object.entries(row.ledger as Record<string, number>)) byLocation[name] = (byLocation[name] ?? 0) + sum;
      expect(byLocation).toEqual(sums);
    }
    const last = report.days.at(-1);
    expect(last.gift_card_liability_amount).toBe(ledger.liability);
    // The named figures are the ledger's: what the operations above moved.
    const orders = (await merchantOrders(merchantId)).filter((order) => String(order.created_at).startsWith(today()));
    const all = last.all_locations;
    expect(all.orders_count).toBe(orders.length);
    expect(all.sales_amount).toBe(orders.reduce((sum, order) => sum + Number(order.spend_amount), 0));
    expect(all.tips_amount).toBe(orders.reduce((sum, order) => sum + Number(order.tip_amount), 0));
    const sums = ledger.byDay.get(today()) ?? {};
    expect(all.card_charged_amount).toBe(sums['card:card_charge']);
    expect(all.refunds_amount).toBe(-(sums['card:card_refund'] ?? 0) + (sums['giftcard:gift_card_restored'] ?? 0));
    // The POS's refund gave back 1200 - 300 credit + 100 tip; the management API's its order's 2000 + 150 tip.
    expect(all.refunds_amount).toBe(1000 + 2150);
    expect(all.gift_card_value_added_amount).toBe(1000);
    expect(all.gift_card_value_spent_amount).toBe(-sums['giftcard:gift_card_redeemed']!);
    // Granted at the POS (500) and through the management API, and the management API's detached refund.
    expect(all.credit_added_amount).toBe((sums['credit:credit_earned'] ?? 0) + 500 + management.granted + management.detachedAmount);
    expect(all.credit_spent_amount).toBe(300);
    // Taken back: the detached credit the management refund's order no longer covers, and the grant that expired.
    expect(sums['credit:credit_expired']).toBe(-management.expired);
    // The detached credit covered every charge, so the refund takes back all its order's charge from it.
    const managedCardRefund = ledger.entries.find((entry) => entry.entry_id === `order:${management.managedOrder.uuid}:card_refund`);
    expect(managedCardRefund?.amount).toBeLessThan(0);
    expect(sums['credit:detached_refund_reversed']).toBe(managedCardRefund?.amount);
    expect(all.credit_removed_amount).toBe(
      -((sums['credit:credit_reversed'] ?? 0) + sums['credit:detached_refund_reversed']! + sums['credit:credit_expired']!),
    );
    expect(all.loyalty_members_count).toBe(1);
    // The order-linked movements are at the order's location; the grant has none.
    const atLocation = last.locations.find((row: { location_id: number | null }) => row.location_id === world.location.location_id);
    const noLocation = last.locations.find((row: { location_id: number | null }) => row.location_id === null);
    expect(atLocation.orders_count).toBe(orders.length);
    expect(atLocation.gift_card_value_added_amount).toBe(1000);
    expect(noLocation.ledger['credit:credit_granted']).toBe(500 + management.granted);
    expect(noLocation.ledger['credit:detached_refund']).toBe(management.detachedAmount);
    expect(noLocation.credit_removed_amount).toBe(management.expired);
    expect(atLocation.refunds_amount).toBe(all.refunds_amount);
    expect(atLocation.credit_removed_amount).toBe(-sums['credit:detached_refund_reversed']! - (sums['credit:credit_reversed'] ?? 0));

    // A replay hands every record of the stream to the stream function again: the markers count nothing twice.
    const records = await tableStreamRecords(api);
    for (let replay = 0; replay < 2; replay++) await streamHandler({ Records: records } as DynamoDBStreamEvent);
    expect(await read()).toEqual(report);

    // One location's rows only.
    const one = await api.call('GET', reportPath(merchantId, `from=${today()}&to=${today()}&location_id=${world.location.location_id}`), { token: owner });
    expect(one.status).toBe(200);
    expect(one.body.daily_report.days[0].locations).toEqual([atLocation]);
  }, 60_000);

  it('exports the orders and the ledger of a range as CSV that parses back, formula cells defused', async () => {
    const orders = await api.call('GET', `/v15/merchants/${merchantId}/exports/orders.csv?from=${today()}&to=${today()}`, { token: owner });
    expect(orders.status).toBe(200);
    expect(orders.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const [header, ...rows] = parseCsv(orders.text);
    expect(rows).toHaveLength((await merchantOrders(merchantId)).length);
    const row = Object.fromEntries(header!.map((name, index) => [name, rows.find((cells) => cells[0] === orderUuid)![index]]));
    expect(row).toMatchObject({
      spend_amount: '1500',
      tip_amount: '200',
      cashier: `'${CASHIER}`,
      register: "'+1 register",
      location_id: String(world.location.location_id),
    });

    const ledger = await api.call('GET', `/v15/merchants/${merchantId}/exports/ledger.csv?from=${yesterday()}&to=${today()}`, { token: owner });
    expect(ledger.status).toBe(200);
    const [ledgerHeader, ...entries] = parseCsv(ledger.text);
    expect(ledgerHeader).toEqual(['created_at', 'account', 'entry_id', 'kind', 'amount', 'contra_account', 'transfer_id', 'reference']);
    const expected = (await ledgerSums(merchantId)).entries;
    expect(entries.map((cells) => `${cells[1]}|${cells[2]}|${cells[4]}`).sort()).toEqual(
      expected.map((item) => `${item.account}|${item.entry_id}|${item.amount}`).sort(),
    );
    // The management API's movements are among them: its refund's (on the card, the credit and the detached tally),
    // its detached refund's (credit and tally), its grants' (and the POS's) and the expiry.
    const tally = (rows: string[][]) => rows.reduce<Record<string, number>>((counts, cells) => ({ ...counts, [cells[3]!]: (counts[cells[3]!] ?? 0) + 1 }), {});
    expect(tally(entries.filter((cells) => cells[7]!.includes(management.managedOrder.uuid)))).toMatchObject({ card_refund: 1, detached_refund_reversed: 2 });
    expect(tally(entries)).toMatchObject({ detached_refund: 2, credit_granted: 3, credit_expired: 1 });
    // A negative amount stays a number (no formula prefix on numbers).
    expect(entries.some((cells) => cells[4]!.startsWith('-'))).toBe(true);
  });

  it('refuses a bad range with 422 in the error format', async () => {
    const cases = [`from=${today()}&to=${yesterday()}`, 'from=2026-01-01&to=2026-06-30', 'from=2026-02-30&to=2026-03-01', 'to=2026-01-01'];
    for (const query of cases) {
      for (const path of [reportPath(merchantId, query), `/v15/merchants/${merchantId}/exports/ledger.csv?${query}`]) {
        const response = await api.call('GET', path, { token: owner });
        expect(response.status, `${path}`).toBe(422);
        expect(response.body[0].error).toMatchObject({ object: expect.any(String), property: expect.any(String), message: expect.any(String) });
      }
    }
  });

  it('answers owners and managers; 403 to staff and to the shared login; 401 to another merchant', async () => {
    const other = await merchantFixture(world.app.app_id);
    const otherOwner = await staffToken(world.app.app_id, other.merchant.merchant_id, 'owner');
    const range = `from=${today()}&to=${today()}`;
    const paths = [
      reportPath(merchantId, range),
      `/v15/merchants/${merchantId}/exports/orders.csv?${range}`,
      `/v15/merchants/${merchantId}/exports/ledger.csv?${range}`,
    ];
    for (const path of paths) {
      for (const role of ['owner', 'manager'] as const) {
        expect((await api.call('GET', path, { token: await staffToken(world.app.app_id, merchantId, role) })).status, `${role} ${path}`).toBe(200);
      }
      const staff = await api.call('GET', path, { token: await staffToken(world.app.app_id, merchantId, 'staff') });
      expect(staff.status).toBe(403);
      expect(staff.body[0].error.code).toBe('role_not_allowed');
      const shared = await api.call('GET', path, { token: world.merchant.token });
      expect(shared.status).toBe(403);
      expect(shared.body[0].error.code).toBe('staff_login_required');
      expect((await api.call('GET', path, { token: otherOwner })).status).toBe(401);
    }
  });
});

describe('counting under concurrency', () => {
  it('counts each record once when three deliveries of the same batch run at once', async () => {
    const { app } = await orderWorld();
    const merchantId = (await merchantFixture(app.app_id)).merchant.merchant_id;
    const account = `giftcard:${randomInt(1, 2 ** 31)}:${merchantId}`;
    const createdAt = new Date().toISOString().replace(/\.\d{3}Z$/, '+00:00');
    // Inserted ledger entries as the stream carries them (counting reads nothing of them but their image).
    const images = Array.from({ length: 5 }, () => {
      const entryId = `test:${randomUUID()}`;
      return {
        ...keys.ledgerEntry(account, entryId),
        entity: 'LedgerEntry',
        account,
        entry_id: entryId,
        kind: 'gift_card_load',
        amount: 700,
        reference: {},
        created_at: createdAt,
      };
    });
    const outcomes = await Promise.all([countReportRecords(images), countReportRecords(images), countReportRecords(images)]);
    expect(outcomes.reduce((sum, outcome) => sum + outcome.counted, 0)).toBe(5);
    expect(outcomes.reduce((sum, outcome) => sum + outcome.skipped, 0)).toBe(10);
    const owner = await staffToken(app.app_id, merchantId, 'owner');
    const response = await api.call('GET', reportPath(merchantId, `from=${today()}&to=${today()}`), { token: owner });
    expect(response.status).toBe(200);
    const [day] = response.body.daily_report.days;
    expect(day.all_locations.ledger).toEqual({ 'giftcard:gift_card_load': 3500 });
    expect(day.gift_card_liability_amount).toBe(3500);
  });
});
