/**
 * Business metrics (issue 18): money-moving requests through the local gateway write the CloudWatch
 * EMF lines the alarms and the dashboard read (infra/constructs/monitoring.ts), once per movement:
 * a replay, a refusal or a second refund adds nothing.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.hoisted(() => {
  // vitest.config.ts silences EMF for the rest of the suite; this file reads it. Set before any import.
  process.env.POWERTOOLS_METRICS_DISABLED = 'false';
});

import { useTestApi } from '../support/api.ts';
import { appFixture, merchantFixture } from '../support/fixtures.ts';
import { ACCOUNT_LOGIN_FAILURES } from '#shared/domain/rate-limits.ts';
import { loadGiftCard, moneyWorld, orderWorld, placeOrder } from '../support/money.ts';
import { businessMetric } from '../../infra/constructs/monitoring.ts';
import { BUSINESS_METRICS, METRICS_NAMESPACE, publishMetrics, recordChargeVoid, recordLoginLockout, recordOrderAheadValidation } from '#shared/metrics.ts';

interface EmfLine {
  _aws: { CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }[] };
  [field: string]: unknown;
}

const api = useTestApi();
let lines: EmfLine[] = [];
let restore: () => void;

beforeEach(() => {
  lines = [];
  const write = process.stdout.write.bind(process.stdout);
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: any, ...rest: any[]) => {
    for (const text of String(chunk).split('\n')) if (text.includes('"_aws"')) lines.push(JSON.parse(text) as EmfLine);
    return String(chunk).includes('"_aws"') ? true : write(chunk, ...rest);
  });
  restore = () => spy.mockRestore();
});
afterEach(() => restore());

/** Sum of a metric over the EMF lines written, optionally only those with the given dimension values. */
function total(name: string, dimensions: Record<string, string> = {}): number {
  return lines
    .filter((line) => line._aws.CloudWatchMetrics.some((directive) => directive.Metrics.some((metric) => metric.Name === name)))
    .filter((line) => Object.entries(dimensions).every(([key, value]) => line[key] === value))
    .reduce((sum, line) => sum + [line[name] as number | number[]].flat().reduce((a, b) => a + b, 0), 0);
}

describe('business metrics', () => {
  it('a gift card load counts once with its cents; its replay adds nothing', async () => {
    const world = await moneyWorld();
    const addition = { payment_token_data: world.user.user.payment_token_data, value_amount: 2500, external_identifier: `metrics-${Date.now()}` };
    expect((await loadGiftCard(api, world.merchant.token, world.merchant.merchant.merchant_id, addition)).status).toBe(200);
    expect((await loadGiftCard(api, world.merchant.token, world.merchant.merchant.merchant_id, addition)).status).toBe(200);
    expect(total(BUSINESS_METRICS.giftCardLoads)).toBe(1);
    expect(total(BUSINESS_METRICS.giftCardValueAddedCents)).toBe(2500);
  });

  it('a completed order and its refund count with their cents; a second refund adds nothing', async () => {
    const world = await orderWorld();
    const completed = await placeOrder(api, world, { spend_amount: 1200, tip_amount: 300 });
    expect(completed.status).toBe(200);
    expect(total(BUSINESS_METRICS.ordersCompleted)).toBe(1);
    expect(total(BUSINESS_METRICS.ordersCompletedCents)).toBe(1500);
    const refund = () => api.call('POST', `/v14/orders/${completed.body.order.uuid}/refund`, { token: world.merchant.token });
    expect((await refund()).status).toBe(200);
    // A repeat answers the refunded order (issue 34.2) and counts nothing more.
    expect((await refund()).status).toBe(200);
    expect(total(BUSINESS_METRICS.ordersRefunded)).toBe(1);
    expect(total(BUSINESS_METRICS.ordersRefundedCents)).toBe(1500);
  });

  it('a login lockout counts once, when the tenth failure locks the account (by account kind)', async () => {
    const { app, apiKey } = await appFixture();
    const merchant = await merchantFixture(app.app_id);
    const attempt = (password: string) =>
      api.call('POST', '/v15/access_tokens', {
        localAddress: '127.0.0.31',
        body: { access_token: { api_key: apiKey, username: merchant.username, password } },
      });
    for (let index = 0; index < ACCOUNT_LOGIN_FAILURES.limit - 1; index++) await attempt(`wrong ${index}`);
    expect(total(BUSINESS_METRICS.loginLockouts)).toBe(0);
    await attempt('the tenth wrong one');
    await attempt(merchant.password);
    expect(total(BUSINESS_METRICS.loginLockouts, { account: 'merchant' })).toBe(1);
  });

  it('a declined card counts as a declined charge and completes nothing', async () => {
    const world = await orderWorld({ card: 'declines' });
    expect((await placeOrder(api, world)).status).toBe(422);
    expect(total(BUSINESS_METRICS.chargesDeclined)).toBe(1);
    expect(total(BUSINESS_METRICS.ordersCompleted)).toBe(0);
  });

  it('every line is in the namespace and dimensions the alarms and the dashboard read', () => {
    recordChargeVoid(false);
    recordChargeVoid(true);
    recordOrderAheadValidation('invalid');
    recordLoginLockout('merchant');
    publishMetrics();
    const expectedDimensions = (name: string, extra: Record<string, string> = {}) => Object.keys(businessMetric(name, extra).dimensions ?? {}).sort();
    for (const [name, extra] of [
      [BUSINESS_METRICS.chargeVoidFailed, {}],
      [BUSINESS_METRICS.chargeVoids, {}],
      [BUSINESS_METRICS.orderAheadValidations, { outcome: 'invalid' }],
      [BUSINESS_METRICS.loginLockouts, { account: 'merchant' }],
    ] as const) {
      const line = lines.find((candidate) => candidate._aws.CloudWatchMetrics[0]!.Metrics.some((metric) => metric.Name === name))!;
      const directive = line._aws.CloudWatchMetrics[0]!;
      expect(directive.Namespace).toBe(METRICS_NAMESPACE);
      expect(directive.Dimensions.map((set) => [...set].sort())).toEqual([expectedDimensions(name, extra)]);
      const metric = businessMetric(name, extra);
      for (const [key, value] of Object.entries(metric.dimensions ?? {})) expect(line[key]).toBe(value);
      expect(line[name]).toBe(1);
    }
  });
});
