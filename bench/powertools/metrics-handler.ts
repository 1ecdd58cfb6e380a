/** The cold-start baseline plus Powertools Metrics: one metric recorded and flushed as EMF per request. */
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { handler as baseline } from '../baseline-handler.ts';

const metrics = new Metrics({ namespace: 'LoyaltyApiBench', serviceName: 'bench' });

export const handler = async () => {
  const result = await baseline();
  metrics.addMetric('BenchRequests', MetricUnit.Count, 1);
  metrics.publishStoredMetrics();
  return result;
};
