/**
 * Webhook endpoints: where an audience (a merchant, or an app) wants its events POSTed, with the secret
 * that signs them. At most MAX_ENDPOINTS per audience (a counter item beside them keeps the bound under
 * concurrent creates). The secret is shown once, when made (create, roll); rolling keeps the old one valid
 * for SECRET_OVERLAP_SECONDS, and deliveries are signed with both meanwhile (signature.ts). A merchant's create, roll
 * and delete write their audit entry in their own transaction (an app has no audit log); no entry holds a secret.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, table } from '#shared/db/client.ts';
import { and, attributeMissing, below, equals, itemExists, or } from '#shared/db/conditions.ts';
import { defineEntity, type EntityItem } from '#shared/db/entity.ts';
import { keys } from '#shared/db/keys.ts';
import { transactWrite, type TransactItem } from '#shared/db/transactions.ts';
import { auditEntry, type AuditContext } from '#shared/domain/audit/audit-log.ts';
import type { AuditAction } from '#shared/schemas/audit.ts';
import { conflict, notFound, unprocessable } from '#shared/errors.ts';
import { optionalEnv } from '#shared/env.ts';
import { isoSeconds } from '#shared/time.ts';
import { audienceKey, EVENT_AUDIENCE, type Audience, type EventType } from './catalogue.ts';
import { isLocalLoopbackUrl, isPublicHostname } from './addresses.ts';

export const MAX_ENDPOINTS = 10;
export const MAX_URL_LENGTH = 2048;
/** How long a rolled secret keeps signing deliveries beside the new one. */
export const SECRET_OVERLAP_SECONDS = 24 * 3600;

export interface EndpointSecret {
  secret: string;
  /** Epoch seconds after which this secret no longer signs (null: current). */
  expires_at: number | null;
}

interface WebhookEndpointAttributes {
  endpoint_id: string;
  audience: string;
  url: string;
  events: EventType[];
  secrets: EndpointSecret[];
  created_at: string;
  failed_deliveries?: number;
  last_failure?: { event_id: string; failed_at: string; attempts: number; last_status: number | null } | null;
}

/** An endpoint; listed in its audience's partition (gsi1, keys.audienceWebhookEndpointsIndex). */
export const WebhookEndpoint = defineEntity<WebhookEndpointAttributes & ReturnType<typeof keys.audienceWebhookEndpointsIndex>>()({
  entity: 'WebhookEndpoint',
  key: keys.webhookEndpoint,
});
export type WebhookEndpointItem = EntityItem<typeof WebhookEndpoint>;

/** How many endpoints an audience has (no entity tag: it is only ever ADDed to). */
const WebhookEndpointCount = defineEntity<{ endpoint_count: number }>()({ entity: 'WebhookEndpointCount', key: keys.webhookEndpointCount });

/** The endpoint is the audience's (`owner`: audienceKey). */
const ownedBy = (owner: string) => equals('audience', owner);

const URL_PROBLEM = (message: string) => unprocessable('webhook_endpoint', 'url', message, 'invalid_url');

/** Whether plain-http loopback URLs are allowed: only on the local stack, as for permissions-request callbacks. */
export const allowsLoopbackUrls = (): boolean => optionalEnv('ALLOW_HTTP_CALLBACKS') === 'true';

/**
 * The URL rules: https to a public host; on the local stack also http://127.0.0.1 and http://localhost.
 * Nothing else: no other scheme, no credentials in the URL, no IP literal or name of a private,
 * loopback or link-local range (deliveries check the resolved address again, against DNS rebinding).
 */
export function checkEndpointUrl(raw: string): string {
  if (raw.length > MAX_URL_LENGTH) throw URL_PROBLEM(`must be at most ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw URL_PROBLEM('must be an absolute URL');
  }
  if (url.username || url.password) throw URL_PROBLEM('must not carry credentials');
  if (url.hash) throw URL_PROBLEM('must not have a fragment');
  if (allowsLoopbackUrls() && isLocalLoopbackUrl(url)) return url.toString();
  if (url.protocol !== 'https:') throw URL_PROBLEM('must use https');
  if (!isPublicHostname(url.hostname)) throw URL_PROBLEM('must name a public host (no private, loopback or link-local address)');
  return url.toString();
}

function checkEventTypes(audience: Audience, events: readonly EventType[]): EventType[] {
  const unique = [...new Set(events)];
  const foreign = unique.filter((type) => EVENT_AUDIENCE[type] !== audience.kind);
  if (foreign.length > 0) throw unprocessable('webhook_endpoint', 'events', `are not sent to a ${audience.kind}: ${foreign.join(', ')}`, 'not_for_audience');
  return unique;
}

/** What an audit entry shows of an endpoint: where it sends and what (never a secret). */
const audited = (endpoint: Pick<WebhookEndpointAttributes, 'url' | 'events'>) => ({ url: endpoint.url, events: endpoint.events });

/** The audit entry of a change of a merchant's endpoint, for the change's transaction; an app's change has none. */
function auditItems(audience: Audience, audit: AuditContext, action: AuditAction, endpointId: string, before?: unknown, after?: unknown): TransactItem[] {
  if (audience.kind !== 'merchant') return [];
  return [auditEntry(audit, { merchantId: audience.id, action, object: { type: 'webhook_endpoint', id: endpointId }, before, after })];
}

/** `whsec_` + standard base64 of 32 random bytes: the Standard Webhooks secret format (signature.ts). */
const newSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

export async function createEndpoint(
  audience: Audience,
  input: { url: string; events: readonly EventType[] },
  audit: AuditContext,
): Promise<{ endpoint: WebhookEndpointItem; secret: string }> {
  const url = checkEndpointUrl(input.url);
  const events = checkEventTypes(audience, input.events);
  const owner = audienceKey(audience);
  const secret = newSecret();
  const endpointId = `we_${randomUUID().replaceAll('-', '')}`;
  const endpoint = WebhookEndpoint.at(endpointId).item({
    ...keys.audienceWebhookEndpointsIndex(owner, endpointId),
    endpoint_id: endpointId,
    audience: owner,
    url,
    events,
    secrets: [{ secret, expires_at: null }],
    created_at: isoSeconds(),
    failed_deliveries: 0,
    last_failure: null,
  });
  const outcome = await transactWrite(() => [
    WebhookEndpointCount.at(owner).update({ add: { endpoint_count: 1 } }, or(attributeMissing('endpoint_count'), below('endpoint_count', MAX_ENDPOINTS))),
    WebhookEndpoint.at(endpointId).putNew(endpoint),
    ...auditItems(audience, audit, 'webhook_endpoint.created', endpointId, undefined, audited(endpoint)),
  ]);
  if (!outcome.committed) {
    if (outcome.reasons[0] === 'ConditionalCheckFailed')
      throw unprocessable('webhook_endpoint', 'base', `At most ${MAX_ENDPOINTS} webhook endpoints; delete one first.`, 'too_many');
    throw conflict('Another change of these endpoints is in progress; retry shortly.', 1, 'webhook_endpoint', 'in_progress');
  }
  return { endpoint, secret };
}

/** An endpoint as listed: everything but its secrets (never shown again, and not needed to fan out). */
export type ListedEndpoint = Omit<WebhookEndpointItem, 'secrets'>;
const LISTED_FIELDS: readonly (keyof ListedEndpoint)[] = ['endpoint_id', 'audience', 'url', 'events', 'created_at', 'failed_deliveries', 'last_failure'];
const LISTED_NAMES = Object.fromEntries(LISTED_FIELDS.map((field, index) => [`#f${index}`, field]));
const LISTED_PROJECTION = Object.keys(LISTED_NAMES).join(', ');

/** The audience's endpoints, oldest first (at most MAX_ENDPOINTS). */
export async function listEndpoints(audience: Audience): Promise<ListedEndpoint[]> {
  const partition = keys.audienceWebhookEndpoints(audienceKey(audience));
  const result = await db().send(
    new QueryCommand({
      TableName: table(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :prefix)',
      ProjectionExpression: LISTED_PROJECTION,
      ExpressionAttributeNames: LISTED_NAMES,
      ExpressionAttributeValues: { ':pk': partition.gsi1pk, ':prefix': partition.skPrefix },
      Limit: MAX_ENDPOINTS * 2,
    }),
  );
  // Both keys are ASCII (ISO instants, `we_` and hex): code-unit order is their order, no locale needed.
  const byCreation = (a: ListedEndpoint, b: ListedEndpoint) =>
    a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.endpoint_id < b.endpoint_id ? -1 : a.endpoint_id > b.endpoint_id ? 1 : 0;
  return (result.Items ?? []).flatMap((item) => WebhookEndpoint.from(item) ?? []).sort(byCreation);
}

export async function getEndpoint(endpointId: string): Promise<WebhookEndpointItem | undefined> {
  return WebhookEndpoint.at(endpointId).get({ consistent: true });
}

/** The audience's own endpoint; anyone else's is not found (404, never 401: ids of others are not confirmed). */
export async function getOwnEndpoint(audience: Audience, endpointId: string): Promise<WebhookEndpointItem> {
  const endpoint = await getEndpoint(endpointId);
  if (!endpoint || endpoint.audience !== audienceKey(audience)) throw notFound();
  return endpoint;
}

/**
 * Deletes the audience's own endpoint in one transaction, without reading it first: the delete is guarded by
 * the owner, so another audience's endpoint, an unknown id and one already deleted are all 404 (the count
 * goes down only with a delete that happened). Its audit entry names the endpoint by id (its creation's entry says
 * where it sent).
 */
export async function deleteEndpoint(audience: Audience, endpointId: string, audit: AuditContext): Promise<void> {
  const owner = audienceKey(audience);
  const outcome = await transactWrite(() => [
    WebhookEndpoint.at(endpointId).delete(and(itemExists, ownedBy(owner))),
    WebhookEndpointCount.at(owner).update({ add: { endpoint_count: -1 } }),
    ...auditItems(audience, audit, 'webhook_endpoint.deleted', endpointId),
  ]);
  if (outcome.committed) return;
  if (outcome.reasons[0] === 'ConditionalCheckFailed') throw notFound();
  throw conflict('Another change of this endpoint is in progress; retry shortly.', 1, 'webhook_endpoint', 'in_progress');
}

/**
 * A new secret; the current one keeps signing for SECRET_OVERLAP_SECONDS. Secrets already expired are
 * dropped, so an endpoint holds at most the new one and those still in their overlap.
 */
export async function rollSecret(
  audience: Audience,
  endpointId: string,
  audit: AuditContext,
  nowSeconds = Math.floor(Date.now() / 1000),
): Promise<{ endpoint: WebhookEndpointItem; secret: string }> {
  const endpoint = await getOwnEndpoint(audience, endpointId);
  const secret = newSecret();
  const kept = endpoint.secrets
    .map((held) => ({ secret: held.secret, expires_at: held.expires_at ?? nowSeconds + SECRET_OVERLAP_SECONDS }))
    .filter((held) => held.expires_at > nowSeconds)
    .slice(-2);
  const secrets = [{ secret, expires_at: null }, ...kept];
  const outcome = await transactWrite(() => [
    WebhookEndpoint.at(endpointId).update({ set: { secrets } }, and(itemExists, equals('secrets', endpoint.secrets))),
    ...auditItems(audience, audit, 'webhook_endpoint.secret_rolled', endpointId, undefined, audited(endpoint)),
  ]);
  if (!outcome.committed) throw conflict('The secret was rolled by another request at the same time; retry shortly.', 1, 'webhook_endpoint', 'in_progress');
  return { endpoint: { ...endpoint, secrets }, secret };
}

/** The secrets that sign a delivery now: the current one and any still in its overlap. */
export function signingSecrets(endpoint: WebhookEndpointItem, nowSeconds: number): string[] {
  return endpoint.secrets.filter((held) => held.expires_at === null || held.expires_at > nowSeconds).map((held) => held.secret);
}

/** The answer of a create or a roll: the endpoint with its new secret, shown this once. */
export function endpointWithNewSecret({ endpoint, secret }: { endpoint: WebhookEndpointItem; secret: string }) {
  return serializeEndpoint(endpoint, secret);
}

/** The endpoint as the API shows it (never a secret; the create and roll answers add the new one). */
export function serializeEndpoint(endpoint: ListedEndpoint, secret?: string) {
  return {
    webhook_endpoint: {
      id: endpoint.endpoint_id,
      url: endpoint.url,
      events: endpoint.events,
      ...(secret ? { secret } : {}),
      created_at: endpoint.created_at,
      failed_deliveries: endpoint.failed_deliveries ?? 0,
      last_failure: endpoint.last_failure ?? null,
    },
  };
}
