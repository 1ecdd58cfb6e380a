import { auditContextOf } from '#shared/domain/audit/audit-log.ts';
import { apiHandler, noContent } from '#shared/http/handler.ts';
import { audienceOf } from '#shared/domain/events/catalogue.ts';
import { deleteEndpoint } from '#shared/domain/events/endpoints.ts';
import { webhookEndpointParams } from '#shared/schemas/events.ts';

/** DELETE /v15/webhook_endpoints/:id: no more deliveries to it (queued ones are dropped). */
export const handler = apiHandler('webhook-endpoints-delete', { params: webhookEndpointParams, summary: 'Delete a webhook endpoint' }, async (request) => {
  await deleteEndpoint(audienceOf(request.credentials), request.params.id, auditContextOf(request));
  return noContent();
});
