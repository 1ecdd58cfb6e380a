import { auditContextOf } from '#shared/domain/audit/audit-log.ts';
import { apiHandler, ok } from '#shared/http/handler.ts';
import { audienceOf } from '#shared/domain/events/catalogue.ts';
import { createEndpoint, endpointWithNewSecret } from '#shared/domain/events/endpoints.ts';
import { webhookEndpointBody } from '#shared/schemas/events.ts';

/** POST /v15/webhook_endpoints: where the caller's events go; answers the signing secret, this once. */
export const handler = apiHandler(
  'webhook-endpoints-create',
  {
    body: webhookEndpointBody,
    bodyObject: 'webhook_endpoint',

    summary: 'Register a webhook endpoint for events',
    description:
      'https URLs of public hosts only (the local stack also takes http://127.0.0.1 and http://localhost). The secret signs every delivery (LevelUp-Signature) and is shown only here. See docs/events.md.',
  },
  async (request) => ok(endpointWithNewSecret(await createEndpoint(audienceOf(request.credentials), request.body.webhook_endpoint, auditContextOf(request)))),
);
