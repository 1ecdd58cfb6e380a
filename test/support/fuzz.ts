/**
 * Support for the "prove it holds" tests (test/fuzz, test/isolation): a world of two tenants of each
 * kind with real resources, full-table snapshots to prove a request changed nothing, and the
 * contract's error format.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { table } from '#shared/db/client.ts';
import { scanAll } from '#shared/db/reads.ts';
import { createCampaign } from '#shared/domain/loyalty/campaigns.ts';
import { SAMPLE_IDS } from '#shared/domain/order-ahead/sample-menu.ts';
import { SANDBOX_NONCES } from '#shared/payments/sandbox.ts';
import type { ApiCall, ApiResult, TestApi } from './api.ts';
import { appFixture, merchantFixture } from './fixtures.ts';
import { issueToken } from '#shared/auth/tokens.ts';
import { locationFixture } from './locations.ts';
import { orderAheadLocationFixture, orderAheadUserFixture, pollUntilSettled, startPickup } from './order-ahead.ts';
import { uniqueCode } from './loyalty.ts';

export type Item = Record<string, unknown>;
export type Snapshot = Map<string, Item>;

/** Every item of the test's table, by key (a consistent Scan, paged). */
export async function snapshotTable(): Promise<Snapshot> {
  const items = await scanAll({ TableName: table(), ConsistentRead: true });
  return new Map(items.map((item) => [`${item.pk} | ${item.sk}`, item]));
}

export interface TableChange {
  key: string;
  kind: 'added' | 'removed' | 'changed';
  /** The attributes that differ (every attribute of an added or removed item). */
  attributes: string[];
  before?: Item;
  after?: Item;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** What differs between two snapshots, item by item. */
export function tableChanges(before: Snapshot, after: Snapshot): TableChange[] {
  const changes: TableChange[] = [];
  for (const [key, item] of before) {
    const now = after.get(key);
    if (!now) {
      changes.push({ key, kind: 'removed', attributes: Object.keys(item), before: item });
      continue;
    }
    const names = new Set([...Object.keys(item), ...Object.keys(now)]);
    const differing = [...names].filter((name) => !same(item[name], now[name]));
    if (differing.length > 0) changes.push({ key, kind: 'changed', attributes: differing, before: item, after: now });
  }
  for (const [key, item] of after) if (!before.has(key)) changes.push({ key, kind: 'added', attributes: Object.keys(item), after: item });
  return changes;
}

/** One entry of the contract's error array: `{"error": {object, property, message, code?}}` and nothing else. */
function isErrorEntry(entry: unknown): boolean {
  if (!entry || typeof entry !== 'object' || Array.isArray(entry)) return false;
  const outer = Object.keys(entry);
  if (outer.length !== 1 || outer[0] !== 'error') return false;
  const error = (entry as { error: unknown }).error;
  if (!error || typeof error !== 'object' || Array.isArray(error)) return false;
  const detail = error as Record<string, unknown>;
  const allowed = new Set(['object', 'property', 'message', 'code']);
  return (
    Object.keys(detail).every((name) => allowed.has(name)) &&
    typeof detail.object === 'string' &&
    typeof detail.property === 'string' &&
    typeof detail.message === 'string' &&
    detail.message.length > 0 &&
    (detail.code === undefined || typeof detail.code === 'string')
  );
}

/**
 * A 4xx answer in the contract's format: a non-empty error array, or an empty body where the contract
 * (and docs/*.md) show none: every "not found" 404 (unknown or someone else's resource).
 */
export function contractErrorProblem(response: { status: number; text: string }): string | undefined {
  if (response.status < 400 || response.status >= 500) return undefined;
  if (response.text === '') return response.status === 404 ? undefined : `${response.status} with an empty body`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(response.text);
  } catch {
    return `${response.status} body is not JSON: ${response.text.slice(0, 200)}`;
  }
  if (!Array.isArray(parsed) || parsed.length === 0 || !parsed.every(isErrorEntry))
    return `${response.status} body is not an error array: ${response.text.slice(0, 300)}`;
  return undefined;
}

export function expectContractError(response: { status: number; text: string }, status?: number) {
  if (status !== undefined) expect(response.status, response.text).toBe(status);
  expect(response.status).toBeGreaterThanOrEqual(400);
  expect(response.status).toBeLessThan(500);
  expect(contractErrorProblem(response)).toBeUndefined();
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A call that waits out the local gateway's own throttle (API Gateway's 429 before any handler runs),
 * so a fast test loop still reaches the handlers. Handlers' own 429s (poll limit) are returned.
 */
export async function politeCall(api: TestApi, method: string, path: string, options: ApiCall = {}): Promise<ApiResult> {
  for (let attempt = 0; ; attempt++) {
    const response = await api.call(method, path, options);
    const throttled = response.status === 429 && Array.isArray(response.body) && response.body[0]?.error?.code === 'throttled';
    if (!throttled || attempt >= 20) return response;
    await sleep(Math.max(1, Number(response.headers.get('retry-after') ?? 1)) * 1000);
  }
}

/**
 * Two users (A, B) of one app and two merchants (1, 2), each with real resources: A and B each have
 * a delivery address and a card; merchant 1 has an order-ahead location with the sample menu, merchant 2
 * a location; A has a completed in-store order at merchant 1, gift card value there, a claimed reward,
 * a valid (priced) order-ahead order and a completed one, and has claimed merchant 1's remote check; merchant 1 has a locked campaign (to unlock), merchant 2 a value
 * campaign; app 1 has an app token and a pending permissions request to A, app 2 an app token. Needs the order-ahead test API (local state machine). `secrets` lists every token, password,
 * API key and card nonce made, for the no-plaintext checks.
 */
export async function tenantWorld(api: TestApi) {
  const one = await orderAheadLocationFixture();
  const app = one.app;
  const merchant1 = one.merchant;
  const location1 = one.location;
  const merchant2 = await merchantFixture(app.app_id);
  const location2 = await locationFixture(merchant2.merchant.merchant_id);
  const userA = await orderAheadUserFixture(app.app_id);
  const userB = await orderAheadUserFixture(app.app_id);
  const secrets: string[] = [
    merchant1.token,
    merchant1.password,
    merchant2.token,
    merchant2.password,
    userA.token,
    userA.password,
    userB.token,
    userB.password,
  ];
  const must = (response: ApiResult, what: string) => {
    if (response.status >= 300) throw new Error(`${what}: ${response.status} ${response.text}`);
    return response;
  };

  const cards: Record<'A' | 'B', number> = { A: 0, B: 0 };
  for (const [name, user] of [
    ['A', userA],
    ['B', userB],
  ] as const) {
    const nonce = `${SANDBOX_NONCES.valid}-${randomUUID()}`;
    secrets.push(nonce);
    const card = must(await api.call('POST', '/v15/credit_cards', { token: user.token, body: { credit_card: { gateway_payment_nonce: nonce } } }), 'add card');
    cards[name] = card.body.credit_card.id;
  }

  // A's in-store order at merchant 1, proposed and completed by the POS.
  const proposed = must(
    await api.call('POST', '/v15/proposed_orders', {
      token: merchant1.token,
      body: {
        proposed_order: {
          location_id: location1.location_id,
          payment_token_data: userA.user.payment_token_data,
          spend_amount: 1500,
          tax_amount: 0,
          exemption_amount: 0,
          items: [],
        },
      },
    }),
    'propose',
  );
  const completed = must(
    await api.call('POST', '/v15/completed_orders', {
      token: merchant1.token,
      body: {
        completed_order: {
          proposed_order_uuid: proposed.body.proposed_order.uuid,
          location_id: location1.location_id,
          payment_token_data: userA.user.payment_token_data,
          spend_amount: 1500,
          tax_amount: 0,
          applied_discount_amount: 0,
        },
      },
    }),
    'complete',
  );
  const orderUuid: string = completed.body.order.uuid;
  // A proposed order of merchant 1 that is still open (for cross-merchant completion attempts).
  const openProposal = must(
    await api.call('POST', '/v15/proposed_orders', {
      token: merchant1.token,
      body: { proposed_order: { location_id: location1.location_id, payment_token_data: userA.user.payment_token_data, spend_amount: 700, items: [] } },
    }),
    'propose open',
  );

  must(
    await api.call('POST', `/v15/merchants/${merchant1.merchant.merchant_id}/gift_card_value_additions`, {
      token: merchant1.token,
      body: { gift_card_value_addition: { payment_token_data: userA.user.payment_token_data, value_amount: 2000 } },
    }),
    'gift card',
  );

  const rewardCampaign = await createCampaign({
    merchant_id: merchant1.merchant.merchant_id,
    kind: 'value',
    title: '$3 on us',
    description: 'Three dollars',
    value_amount: 300,
    cohort_code: uniqueCode('FUZZ'),
  });
  const claim = must(await api.call('POST', `/v15/codes/${rewardCampaign.cohort_code}/claims`, { token: userA.token }), 'claim');
  const rewards = must(await api.call('GET', `/v15/merchants/${merchant1.merchant.merchant_id}/rewards`, { token: userA.token }), 'rewards');
  const rewardId: string = rewards.body.find((entry: { reward: { id: string } }) => entry.reward.id.startsWith('claim-'))?.reward.id;
  if (!rewardId) throw new Error(`no claimed reward: ${rewards.text} (claim ${claim.text})`);
  const lockedCampaign = await createCampaign({
    merchant_id: merchant1.merchant.merchant_id,
    kind: 'spend',
    title: 'VIP',
    description: 'VIPs only',
    required_spend_amount: 5000,
    earn_amount: 500,
    locked: true,
  });
  const merchant2Campaign = await createCampaign({
    merchant_id: merchant2.merchant.merchant_id,
    kind: 'value',
    title: '$1',
    description: 'One dollar',
    value_amount: 100,
    cohort_code: uniqueCode('FUZZ'),
  });

  // A's order-ahead order, validated by the local state machine (valid: ready to complete).
  const started = must(await startPickup(api, userA.token, location1.location_id, SAMPLE_IDS.burrito), 'start order ahead');
  const { last } = await pollUntilSettled(api, started.body.order.order_url, userA.token);
  if (last.status !== 200) throw new Error(`order ahead order not valid: ${last.status} ${last.text}`);
  const orderAheadUuid: string = started.body.order.uuid;

  // A's completed order-ahead order (charged, accepted by the sandbox provider): a completion to poll, a past cart.
  const second = must(await startPickup(api, userA.token, location1.location_id), 'start order ahead to complete');
  const secondValid = await pollUntilSettled(api, second.body.order.order_url, userA.token);
  if (secondValid.last.status !== 200) throw new Error(`order ahead order not valid: ${secondValid.last.status} ${secondValid.last.text}`);
  const submitted = must(await api.call('POST', secondValid.last.body.order.order_completion_url, { token: userA.token }), 'complete order ahead');
  const completion = await pollUntilSettled(api, submitted.body.order.order_url, userA.token);
  if (completion.last.status !== 200) throw new Error(`order ahead order not completed: ${completion.last.status} ${completion.last.text}`);
  const completedOrderAheadUuid: string = second.body.order.uuid;

  // A remote check of merchant 1 that user A claimed (not yet paid): the POS's to finalise, A's pending order.
  const published = must(
    await api.call('PUT', '/v15/checks', {
      token: merchant1.token,
      body: { check: { location_id: location1.location_id, spend_amount: 1200, tax_amount: 0, exemption_amount: 0, items: null } },
    }),
    'publish check',
  );
  const checkUuid: string = published.body.check.uuid;
  must(await api.call('POST', `/v15/checks/${checkUuid}/orders`, { token: userA.token, body: {} }), 'claim check');

  // Apps acting as themselves: app 1 (the world's app) asks user A for permissions; app 2 is a stranger.
  const appToken = await issueToken({ subject: 'app', appId: app.app_id });
  const otherApp = await appFixture();
  const otherAppToken = await issueToken({ subject: 'app', appId: otherApp.app.app_id });
  secrets.push(appToken, otherAppToken, otherApp.apiKey, otherApp.clientSecret);
  const asked = must(
    await api.call('POST', '/v15/apps/permissions_requests', {
      token: appToken,
      body: { permissions_request: { email: userA.email, permission_keynames: ['read_user_basic_info'] } },
    }),
    'permissions request',
  );
  const permissionsRequestId: number = asked.body.permissions_request.id;

  // Where merchant 1 and app 1 take their events (test/events delivers them; here they are resources to reach for).
  const webhookBody = (url: string, events: string[]) => ({ webhook_endpoint: { url, events } });
  const merchantWebhook = must(
    await api.call('POST', '/v15/webhook_endpoints', {
      token: merchant1.token,
      body: webhookBody('https://hooks.example.com/merchant-1', ['order.completed', 'order.refunded']),
    }),
    'merchant webhook endpoint',
  );
  const appWebhook = must(
    await api.call('POST', '/v15/webhook_endpoints', { token: appToken, body: webhookBody('https://hooks.example.com/app-1', ['reward.earned']) }),
    'app webhook endpoint',
  );
  const merchantEvents = must(await api.call('GET', '/v15/events', { token: merchant1.token }), 'merchant events');

  return {
    merchantWebhookId: merchantWebhook.body.webhook_endpoint.id as string,
    appWebhookId: appWebhook.body.webhook_endpoint.id as string,
    merchantEventId: merchantEvents.body[0].event.id as string,
    app,
    merchant1,
    merchant2,
    location1,
    location2,
    userA,
    userB,
    cards,
    orderUuid,
    openProposalUuid: openProposal.body.proposed_order.uuid as string,
    rewardId,
    rewardCampaign,
    lockedCampaign,
    merchant2Campaign,
    orderAheadUuid,
    appToken,
    otherAppToken,
    permissionsRequestId,
    completedOrderAheadUuid,
    menuId: one.menu.menu_id,
    checkUuid,
    secrets,
  };
}

export type TenantWorld = Awaited<ReturnType<typeof tenantWorld>>;
