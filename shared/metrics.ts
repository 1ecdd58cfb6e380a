/**
 * Business metrics an operator watches (docs/operations.md), as CloudWatch Embedded Metric Format
 * lines written by Powertools for AWS Lambda's Metrics utility: CloudWatch turns each line in a
 * function's log into metric points, so recording a metric costs no API call and no latency.
 *
 * Call sites stay one line each (`recordOrderCompleted(cents)`); the metrics of an invocation go out
 * as one EMF line when it ends: the request pipeline (shared/http/handler.ts) runs the invocation-end
 * hook registered below, the workflow task calls `publishMetrics()`. Only functions whose code path
 * records a metric import this module, so the others do not bundle Powertools (docs/operations.md).
 * The names are exported so the alarms and the dashboard (infra/constructs/monitoring.ts) read the
 * same ones. Dimensions stay few on purpose: CloudWatch bills each name x dimension combination as
 * one custom metric (docs/cost.md), so only `service` and, where listed, one small enum are used.
 *
 * Locally and in tests the EMF lines go to stdout like in Lambda; `POWERTOOLS_METRICS_DISABLED=true`
 * (vitest.config.ts) silences them.
 */
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { onInvocationEnd } from '#shared/invocation-end.ts';

export const METRICS_NAMESPACE = 'LoyaltyApi';
export const METRICS_SERVICE = 'loyalty-api';

/** Every metric name the API emits. */
export const BUSINESS_METRICS = {
  giftCardLoads: 'GiftCardLoads',
  giftCardValueAddedCents: 'GiftCardValueAddedCents',
  ordersCompleted: 'OrdersCompleted',
  ordersCompletedCents: 'OrdersCompletedCents',
  ordersRefunded: 'OrdersRefunded',
  ordersRefundedCents: 'OrdersRefundedCents',
  chargesDeclined: 'ChargesDeclined',
  chargeVoids: 'ChargeVoids',
  /** A card charge that should have been given back was not: a human must reconcile it (alarmed). */
  chargeVoidFailed: 'ChargeVoidFailed',
  orderAheadValidations: 'OrderAheadValidations',
  /** Submitted order-ahead orders by outcome (the completion workflow's completed / rejected). */
  orderAheadCompletions: 'OrderAheadCompletions',
  loginLockouts: 'LoginLockouts',
  /** Webhook delivery attempts by outcome; `failed` (given up after 7 days) is alarmed. */
  webhookDeliveries: 'WebhookDeliveries',
} as const;

export type ValidationOutcomeLabel = 'valid' | 'invalid' | 'failed';
export type CompletionOutcomeLabel = 'completed' | 'rejected';
export type AccountKind = 'user' | 'merchant';
export type WebhookOutcomeLabel = 'delivered' | 'retried' | 'failed';

/** Dimension values per metric that has a second dimension (the dashboard draws one line each). */
export const METRIC_DIMENSIONS = {
  [BUSINESS_METRICS.orderAheadValidations]: { name: 'outcome', values: ['valid', 'invalid', 'failed'] satisfies ValidationOutcomeLabel[] },
  [BUSINESS_METRICS.orderAheadCompletions]: { name: 'outcome', values: ['completed', 'rejected'] satisfies CompletionOutcomeLabel[] },
  [BUSINESS_METRICS.loginLockouts]: { name: 'account', values: ['user', 'merchant'] satisfies AccountKind[] },
  [BUSINESS_METRICS.webhookDeliveries]: { name: 'outcome', values: ['delivered', 'retried', 'failed'] satisfies WebhookOutcomeLabel[] },
} as const;

const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName: METRICS_SERVICE });

function count(name: string, value = 1): void {
  metrics.addMetric(name, MetricUnit.Count, value);
}

/** A metric with its own extra dimension goes out as its own EMF line (dimensions apply per line). */
function countWith(name: string, dimension: string, value: string): void {
  metrics.singleMetric().addDimension(dimension, value).addMetric(name, MetricUnit.Count, 1);
}

export function recordGiftCardLoad(cents: number): void {
  count(BUSINESS_METRICS.giftCardLoads);
  count(BUSINESS_METRICS.giftCardValueAddedCents, cents);
}

export function recordOrderCompleted(cents: number): void {
  count(BUSINESS_METRICS.ordersCompleted);
  count(BUSINESS_METRICS.ordersCompletedCents, cents);
}

export function recordOrderRefunded(cents: number): void {
  count(BUSINESS_METRICS.ordersRefunded);
  count(BUSINESS_METRICS.ordersRefundedCents, cents);
}

export function recordChargeDeclined(): void {
  count(BUSINESS_METRICS.chargesDeclined);
}

export function recordChargeVoid(succeeded: boolean): void {
  count(succeeded ? BUSINESS_METRICS.chargeVoids : BUSINESS_METRICS.chargeVoidFailed);
}

export function recordOrderAheadValidation(outcome: ValidationOutcomeLabel): void {
  countWith(BUSINESS_METRICS.orderAheadValidations, 'outcome', outcome);
}

export function recordOrderAheadCompletion(outcome: CompletionOutcomeLabel): void {
  countWith(BUSINESS_METRICS.orderAheadCompletions, 'outcome', outcome);
}

/** For the login protection: an account's logins were locked after too many failures. */
export function recordLoginLockout(account: AccountKind): void {
  countWith(BUSINESS_METRICS.loginLockouts, 'account', account);
}

export function recordWebhookDelivery(outcome: WebhookOutcomeLabel): void {
  countWith(BUSINESS_METRICS.webhookDeliveries, 'outcome', outcome);
}

/** Writes the metrics recorded during this invocation (one EMF line); nothing when there are none. */
export function publishMetrics(): void {
  if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
}

onInvocationEnd(publishMetrics);
