import { apiHandler, noContent, ok } from '#shared/http/handler.ts';
import { audienceOf } from '#shared/domain/events/catalogue.ts';
import { listDeliveries, serializeDelivery } from '#shared/domain/events/deliveries.ts';
import { webhookEndpointParams } from '#shared/schemas/events.ts';

/** GET /v15/webhook_endpoints/:id/deliveries: the endpoint's latest deliveries (50), newest event first, with their state. */
export const handler = apiHandler(
  'webhook-endpoint-deliveries-list',
  {
    params: webhookEndpointParams,

    summary: "List a webhook endpoint's latest deliveries and their state",
    description:
      'The 50 latest events sent to the endpoint (attempted at least once), newest first: delivered, retrying (with the next attempt) or failed after 7 days, with the attempts of the latest sending, the last HTTP status and the replay that sent it last. 204 when none. See docs/events.md, "Deliveries".',
  },
  async (request) => {
    const deliveries = await listDeliveries(audienceOf(request.credentials), request.params.id);
    return deliveries.length === 0 ? noContent() : ok(deliveries.map(serializeDelivery));
  },
);
