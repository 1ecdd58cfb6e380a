import { apiHandler, noContent, ok } from '#shared/http/handler.ts';
import { audienceOf } from '#shared/domain/events/catalogue.ts';
import { listEndpoints, serializeEndpoint } from '#shared/domain/events/endpoints.ts';

/** GET /v15/webhook_endpoints: the caller's endpoints (at most 10), with their given-up deliveries. */
export const handler = apiHandler('webhook-endpoints-list', { summary: 'List webhook endpoints and their failed deliveries' }, async (request) => {
  const endpoints = await listEndpoints(audienceOf(request.credentials));
  return endpoints.length === 0 ? noContent() : ok(endpoints.map((endpoint) => serializeEndpoint(endpoint)));
});
