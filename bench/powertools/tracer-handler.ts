/**
 * The cold-start baseline plus Powertools Tracer (the X-Ray SDK): the DynamoDB client captured so
 * each call is a subsegment, and the handler's own subsegment with an annotation, as its docs show.
 */
import { Tracer } from '@aws-lambda-powertools/tracer';
import { db } from '#shared/db/client.ts';
import { handler as baseline } from '../baseline-handler.ts';

const tracer = new Tracer({ serviceName: 'bench' });
tracer.captureAWSv3Client(db());

export const handler = async () => {
  const segment = tracer.getSegment();
  const subsegment = segment?.addNewSubsegment('## handler');
  if (subsegment) tracer.setSegment(subsegment);
  tracer.annotateColdStart();
  try {
    return await baseline();
  } finally {
    subsegment?.close();
    if (segment) tracer.setSegment(segment);
  }
};
