import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { auditEntryList } from '#shared/schemas/responses/audit.ts';
import type { webhookDeliveryList } from '#shared/schemas/responses/events.ts';
import type * as z from '#shared/schemas/zod.ts';
import { useTestApi } from '../support/api.ts';
import { placeOrder } from '../support/money.ts';
import { merchantRoles } from '../support/staff.ts';
import { createEndpoint, merchantEventWorlds, startReceiver, waitUntil, type Receiver } from '../support/webhooks.ts';

/**
 * Webhooks with staff members' tokens (docs/events.md, "Endpoints"): owners change endpoints (create, delete, roll the
 * secret, replay), owners and managers read them, their deliveries and the events, staff members none of it; the
 * merchant's shared login and app tokens are not staff and keep what they had. And the deliveries list: each event sent
 * to an endpoint with its state (delivered, retrying), attempts, last status and the replay that sent it last.
 */
process.env.WEBHOOK_TIME_SCALE = '0.02';
const api = useTestApi();
let worlds: Awaited<ReturnType<typeof merchantEventWorlds>>;
let roles: Awaited<ReturnType<typeof merchantRoles>>;

beforeAll(async () => {
  worlds = await merchantEventWorlds(api);
  roles = await merchantRoles(worlds.world);
});

afterAll(() => worlds?.stop());

const endpointsOf = async (token: string) => (await api.call('GET', '/v15/webhook_endpoints', { token })).text;
const refusedForRole = (response: { status: number; body: unknown; text: string }) => {
  expect(response.status, response.text).toBe(403);
  expect(response.body).toEqual([{ error: expect.objectContaining({ object: 'access_token', property: 'role', code: 'role_not_allowed' }) }]);
};

/** A delivery as the list answers it (the documented answer's own type). */
type ListedDelivery = z.output<typeof webhookDeliveryList>[number]['delivery'];

async function deliveriesOf(endpointId: string, token: string): Promise<ListedDelivery[]> {
  const response = await api.call('GET', `/v15/webhook_endpoints/${endpointId}/deliveries`, { token });
  if (response.status === 204) return [];
  expect(response.status, response.text).toBe(200);
  return (response.body as { delivery: ListedDelivery }[]).map((item) => item.delivery);
}

describe('who may change and read webhooks with a staff token', () => {
  it('lets only an owner create, roll, replay and delete; a manager and a staff member change nothing', async () => {
    const body = { webhook_endpoint: { url: 'https://hooks.example.com/staff-test', events: ['order.completed'] } };
    for (const token of [roles.manager, roles.staff]) {
      const before = await endpointsOf(roles.owner);
      refusedForRole(await api.call('POST', '/v15/webhook_endpoints', { token, body }));
      refusedForRole(await api.call('POST', `/v15/webhook_endpoints/${worlds.endpoint.id}/secrets`, { token }));
      refusedForRole(await api.call('DELETE', `/v15/webhook_endpoints/${worlds.endpoint.id}`, { token }));
      refusedForRole(
        await api.call('POST', `/v15/webhook_endpoints/${worlds.endpoint.id}/replays`, { token, body: { replay: { after: 'evt_000000000aaaaaaaaaaaaaaaa' } } }),
      );
      expect(await endpointsOf(roles.owner)).toBe(before);
    }

    const created = await api.call('POST', '/v15/webhook_endpoints', { token: roles.owner, body });
    expect(created.status, created.text).toBe(200);
    const id = created.body.webhook_endpoint.id as string;
    expect(created.body.webhook_endpoint.secret).toMatch(/^whsec_/);
    const rolled = await api.call('POST', `/v15/webhook_endpoints/${id}/secrets`, { token: roles.owner });
    expect(rolled.status, rolled.text).toBe(200);
    expect(rolled.body.webhook_endpoint.secret).not.toBe(created.body.webhook_endpoint.secret);
    expect((await api.call('DELETE', `/v15/webhook_endpoints/${id}`, { token: roles.owner })).status).toBe(204);
    expect(await endpointsOf(roles.owner)).not.toContain(id);
  });

  it('lets owners and managers read endpoints, deliveries and events; a staff member none', async () => {
    const paths = ['/v15/webhook_endpoints', `/v15/webhook_endpoints/${worlds.endpoint.id}/deliveries`, '/v15/events'];
    for (const path of paths) {
      for (const token of [roles.owner, roles.manager]) expect([200, 204], path).toContain((await api.call('GET', path, { token })).status);
      refusedForRole(await api.call('GET', path, { token: roles.staff }));
    }
    const listed = await api.call('GET', '/v15/webhook_endpoints', { token: roles.manager });
    expect(listed.status).toBe(200);
    expect(listed.text).toContain(worlds.endpoint.id);
    expect(listed.text).not.toContain('whsec_');
  });

  it("keeps the shared login's rights (it is no staff member) and answers another merchant's owner 404", async () => {
    const shared = worlds.world.merchant.token;
    expect((await api.call('GET', '/v15/webhook_endpoints', { token: shared })).status).toBe(200);
    const rolled = await api.call('POST', `/v15/webhook_endpoints/${worlds.endpoint.id}/secrets`, { token: shared });
    expect(rolled.status, rolled.text).toBe(200);
    const foreign = await api.call('GET', `/v15/webhook_endpoints/${worlds.endpoint.id}/deliveries`, { token: roles.otherOwner });
    expect(foreign.status).toBe(404);
  });
});

describe('webhook changes in the audit log', () => {
  /** An audit entry as the log answers it (the documented answer's own type). */
  type Entry = z.output<typeof auditEntryList>[number]['audit_entry'];
  async function entriesOf(endpointId: string): Promise<Entry[]> {
    const listed = await api.call('GET', `/v15/merchants/${roles.merchantId}/audit_log`, { token: roles.owner });
    if (listed.status === 204) return [];
    expect(listed.status, listed.text).toBe(200);
    return (listed.body as { audit_entry: Entry }[]).map((item) => item.audit_entry).filter((entry) => entry.object.id === endpointId);
  }

  it("writes the owner's create, roll and delete, and the shared login's roll, with who and the URL, never a secret; a refusal writes nothing", async () => {
    const url = 'https://hooks.example.com/audited';
    const created = await api.call('POST', '/v15/webhook_endpoints', { token: roles.owner, body: { webhook_endpoint: { url, events: ['order.completed'] } } });
    expect(created.status, created.text).toBe(200);
    const id = created.body.webhook_endpoint.id as string;
    const owner = { kind: 'staff', staff_id: roles.ownerId, role: 'owner' };
    const shown = { url, events: ['order.completed'] };
    expect(await entriesOf(id)).toEqual([
      expect.objectContaining({ action: 'webhook_endpoint.created', actor: owner, object: { type: 'webhook_endpoint', id }, before: null, after: shown }),
    ]);

    // Refused (a manager's role, another merchant's owner, an unknown id): no entry.
    refusedForRole(await api.call('POST', `/v15/webhook_endpoints/${id}/secrets`, { token: roles.manager }));
    expect((await api.call('DELETE', `/v15/webhook_endpoints/${id}`, { token: roles.otherOwner })).status).toBe(404);
    expect((await api.call('DELETE', '/v15/webhook_endpoints/we_00000000000000000000000000000000', { token: roles.owner })).status).toBe(404);
    expect(await entriesOf(id)).toHaveLength(1);

    expect((await api.call('POST', `/v15/webhook_endpoints/${id}/secrets`, { token: roles.owner })).status).toBe(200);
    expect((await api.call('POST', `/v15/webhook_endpoints/${id}/secrets`, { token: worlds.world.merchant.token })).status).toBe(200);
    expect((await api.call('DELETE', `/v15/webhook_endpoints/${id}`, { token: roles.owner })).status).toBe(204);
    expect((await api.call('DELETE', `/v15/webhook_endpoints/${id}`, { token: roles.owner })).status).toBe(404);

    // Newest first.
    const entries = await entriesOf(id);
    expect(entries.map((entry) => [entry.action, entry.actor.kind])).toEqual([
      ['webhook_endpoint.deleted', 'staff'],
      ['webhook_endpoint.secret_rolled', 'shared_login'],
      ['webhook_endpoint.secret_rolled', 'staff'],
      ['webhook_endpoint.created', 'staff'],
    ]);
    expect(entries[0]).toMatchObject({ actor: owner, before: null, after: null });
    expect(entries[1]).toMatchObject({ actor: { kind: 'shared_login', staff_id: null, role: null }, after: shown });
    expect(entries[2]).toMatchObject({ actor: owner, after: shown, request_id: expect.any(String) });
    expect(JSON.stringify(entries)).not.toContain('whsec_');
    const filtered = await api.call('GET', `/v15/merchants/${roles.merchantId}/audit_log?action=webhook_endpoint.secret_rolled`, { token: roles.owner });
    expect(filtered.status, filtered.text).toBe(200);
    expect(new Set(filtered.body.map((item: { audit_entry: Entry }) => item.audit_entry.action))).toEqual(new Set(['webhook_endpoint.secret_rolled']));
  });
});

describe('GET /v15/webhook_endpoints/:id/deliveries', () => {
  let flaky: Receiver;
  afterAll(async () => flaky?.close());

  it('lists a delivered event with its attempt and status, newest first, and a replay names itself on the delivery', async () => {
    const first = await placeOrder(api, worlds.world);
    const second = await placeOrder(api, worlds.world);
    const uuids = [first.body.order.uuid as string, second.body.order.uuid as string];
    await waitUntil(() => uuids.every((uuid) => worlds.receiver.delivered().some((event) => event.resource.id === uuid)), 'both orders', 10_000);
    const ids = uuids.map((uuid) => worlds.receiver.delivered().find((event) => event.resource.id === uuid)!.id);

    let listed = await deliveriesOf(worlds.endpoint.id, roles.manager);
    // The record is written after the receiver answered: wait for it too.
    for (let round = 0; round < 200 && !ids.every((id) => listed.some((delivery) => delivery.event_id === id)); round++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      listed = await deliveriesOf(worlds.endpoint.id, roles.manager);
    }
    expect(listed.map((delivery) => delivery.event_id)).toEqual([...listed.map((delivery) => delivery.event_id)].sort().reverse());
    const [older, newer] = ids.map((id) => listed.find((delivery) => delivery.event_id === id)!);
    expect(listed.indexOf(newer!)).toBeLessThan(listed.indexOf(older!));
    expect(newer).toEqual({
      event_id: ids[1],
      event_type: 'order.completed',
      state: 'delivered',
      attempts: 1,
      last_status: 200,
      last_error: null,
      last_attempt_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/),
      next_attempt_at: null,
      replay_id: null,
    });

    const replay = await api.call('POST', `/v15/webhook_endpoints/${worlds.endpoint.id}/replays`, { token: roles.owner, body: { replay: { after: ids[0] } } });
    expect(replay.status, replay.text).toBe(200);
    const replayId = replay.body.replay.id as string;
    for (
      let round = 0;
      round < 200 && (await deliveriesOf(worlds.endpoint.id, roles.owner)).find((d) => d.event_id === ids[1])?.replay_id !== replayId;
      round++
    ) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const replayed = (await deliveriesOf(worlds.endpoint.id, roles.owner)).find((delivery) => delivery.event_id === ids[1]);
    expect(replayed).toMatchObject({ state: 'delivered', attempts: 1, last_status: 200, replay_id: replayId });
  });

  it('shows a failing receiver as retrying with its status and the next attempt, then delivered', async () => {
    flaky = await startReceiver();
    let receiverUp = false;
    flaky.answerWith(() => (receiverUp ? 200 : 503));
    const endpoint = await createEndpoint(api, roles.owner, flaky.url, ['order.completed']);
    const order = await placeOrder(api, worlds.world);
    const uuid = order.body.order.uuid as string;
    let listed = await deliveriesOf(endpoint.id, roles.owner);
    for (let round = 0; round < 400 && listed[0]?.state !== 'retrying'; round++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      listed = await deliveriesOf(endpoint.id, roles.owner);
    }
    expect(listed).toEqual([
      expect.objectContaining({ event_type: 'order.completed', state: 'retrying', last_status: 503, last_error: null, next_attempt_at: expect.any(String) }),
    ]);
    expect(listed[0]!.attempts).toBeGreaterThanOrEqual(1);

    receiverUp = true;
    await waitUntil(() => flaky.delivered().some((event) => event.resource.id === uuid), 'the retry', 10_000);
    for (let round = 0; round < 400 && listed[0]?.state !== 'delivered'; round++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      listed = await deliveriesOf(endpoint.id, roles.owner);
    }
    expect(listed).toEqual([
      expect.objectContaining({ event_id: listed[0]!.event_id, state: 'delivered', attempts: flaky.received.length, last_status: 200, next_attempt_at: null }),
    ]);
    expect(flaky.received.length).toBeGreaterThanOrEqual(2);
    expect((await api.call('DELETE', `/v15/webhook_endpoints/${endpoint.id}`, { token: roles.owner })).status).toBe(204);
  });
});
