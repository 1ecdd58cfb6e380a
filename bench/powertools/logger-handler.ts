/** The cold-start baseline plus Powertools Logger: one JSON line per request with the request id. */
import type { Context } from 'aws-lambda';
import { Logger } from '@aws-lambda-powertools/logger';
import { handler as baseline } from '../baseline-handler.ts';

const logger = new Logger({ serviceName: 'bench' });

export const handler = async (_event: unknown, context: Context) => {
  logger.addContext(context);
  const result = await baseline();
  logger.info('request', { status: result.statusCode });
  return result;
};
