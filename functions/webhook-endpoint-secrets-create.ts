import { auditContextOf } from '#shared/domain/audit/audit-log.ts';
import { apiHandler, ok } from '#shared/http/handler.ts';
import { audienceOf } from '#shared/domain/events/catalogue.ts';
import { endpointWithNewSecret, rollSecret } from '#shared/domain/events/endpoints.ts';
import { webhookEndpointParams } from '#shared/schemas/events.ts';

/** POST /v15/webhook_endpoints/:id/secrets: rolls the signing secret; the old one keeps signing for 24 hours. */
export const handler = apiHandler(
  'webhook-endpoint-secrets-create',
  {
    params: webhookEndpointParams,

    summary: 'Roll the signing secret of a webhook endpoint',
    description:
      'Answers the new secret (shown only here). For 24 hours deliveries carry two v1 signatures, one per secret, so receivers can switch without losing any.',
  },
  async (request) => ok(endpointWithNewSecret(await rollSecret(audienceOf(request.credentials), request.params.id, auditContextOf(request)))),
);
