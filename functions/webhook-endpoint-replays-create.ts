import { apiHandler, ok } from '#shared/http/handler.ts';
import { audienceOf } from '#shared/domain/events/catalogue.ts';
import { replay } from '#shared/domain/events/delivery.ts';
import { replayBody, webhookEndpointParams } from '#shared/schemas/events.ts';

/** POST /v15/webhook_endpoints/:id/replays: delivers again, in order, the endpoint's events after one. */
export const handler = apiHandler(
  'webhook-endpoint-replays-create',
  {
    params: webhookEndpointParams,
    body: replayBody,
    bodyObject: 'replay',

    summary: 'Replay events to a webhook endpoint',
    description:
      'Queues again the events of the last 30 days after `after` that the endpoint subscribes to (at most 1000 per replay), per resource in order, with the same ids and bodies.',
  },
  async (request) => {
    const after = request.body.replay.after;
    const result = await replay(audienceOf(request.credentials), request.params.id, after);
    return ok({ replay: { id: result.id, webhook_endpoint_id: request.params.id, after, queued: result.queued } });
  },
);
