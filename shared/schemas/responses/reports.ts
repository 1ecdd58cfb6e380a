/** What the reports and exports of the management API answer (the queries: shared/schemas/reports.ts). */
import * as z from '#shared/schemas/zod.ts';
import { cents, integerId } from './common.ts';
import { named } from './registry.ts';

const count = integerId.check(z.describe('A count'));

const reportFigures = {
  orders_count: count,
  sales_amount: cents.check(z.describe("Completed orders' spend (excluding tips), in cents")),
  tips_amount: cents,
  refunds_amount: cents.check(z.describe("Money orders' refunds gave back: to the card and to the gift card, in cents")),
  card_charged_amount: cents,
  gift_card_value_added_amount: cents.check(z.describe('Gift card value loaded or bought for someone (held for an email included)')),
  gift_card_value_spent_amount: cents.check(z.describe('Gift card value spent on orders')),
  gift_card_value_removed_amount: cents.check(z.describe('Gift card value removed at a POS, or an unclaimed gift returned to its buyer')),
  credit_added_amount: cents.check(z.describe('Merchant-funded credit earned (rewards), granted, or given by detached refunds')),
  credit_spent_amount: cents.check(z.describe('Merchant-funded credit (rewards) applied to orders')),
  credit_removed_amount: cents.check(
    z.describe("Merchant-funded credit taken back: earned by an order since refunded, a detached refund's that a refund no longer covers, or expired"),
  ),
  loyalty_members_count: count.check(z.describe('Customers whose first order at the merchant this was')),
  rewards_earned_count: count,
  rewards_earned_amount: cents,
  ledger: z
    .record(z.string(), cents)
    .check(z.describe('The ledger sums these figures are made of, by `<account kind>:<movement kind>`, signed as the ledger holds them (docs/money.md)')),
};

export const dailyReportResponse = named(
  'DailyReport',
  z.object({
    daily_report: z.object({
      from: z.string(),
      to: z.string(),
      time_zone: z.literal('UTC'),
      location_id: z.nullable(integerId),
      days: z.array(
        z.object({
          date: z.string(),
          gift_card_liability_amount: cents.check(z.describe("Gift card value the merchant's customers held at the end of the day (UTC)")),
          all_locations: z.object(reportFigures),
          locations: z.array(z.object({ location_id: z.nullable(integerId).check(z.describe('null: movements without a location')), ...reportFigures })),
        }),
      ),
    }),
  }),
);

export const csvExport = z.string().check(z.meta({ contentMediaType: 'text/csv' }));
