/**
 * Webhook delivery that cannot be turned inward (issue 33, attack 6), in the production setting
 * (ALLOW_HTTP_CALLBACKS=false: https only, no loopback). Receivers are https servers on loopback given public
 * names and addresses by a test network (`useDeliveryNetwork`): its resolver maps names to addresses, and a
 * socket to a public address is sent to the receiver standing in for it. The address rule itself is the
 * production one, loopback forbidden, so names that resolve to loopback exercise the refusal path and
 * names that resolve to public IPv4 and IPv6 addresses the accept path.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useDeliveryNetwork } from '#shared/domain/events/delivery.ts';
import { verifySignature } from '#shared/domain/events/signature.ts';
import { reserve, WEBHOOK_REPLAYS_PER_DAY, WEBHOOK_REPLAYS_PER_ENDPOINT } from '#shared/domain/rate-limits.ts';
import { useTestApi } from '../support/api.ts';
import { loadGiftCard, orderWorld, type OrderWorld } from '../support/money.ts';
import {
  createEndpoint,
  fakeDns,
  listAllEvents,
  PUBLIC_V4,
  PUBLIC_V6,
  selfSignedCertificate,
  startEventPipeline,
  startTlsReceiver,
  waitUntil,
} from '../support/webhooks.ts';

process.env.WEBHOOK_TIME_SCALE = '0.02';
const api = useTestApi();

const NAMES = ['hooks-v4.example.com', 'hooks-v6.example.com', 'rebind.example.com', 'loopback.example.com', 'mapped.example.com', 'nat64.example.com'];

let pipeline: Awaited<ReturnType<typeof startEventPipeline>>;
let publicV4: Awaited<ReturnType<typeof startTlsReceiver>>;
let internal: Awaited<ReturnType<typeof startTlsReceiver>>;
let publicV6: Awaited<ReturnType<typeof startTlsReceiver>>;
const { resolve, resolutions } = fakeDns(NAMES);

beforeAll(async () => {
  process.env.ALLOW_HTTP_CALLBACKS = 'false';
  const tls = selfSignedCertificate(NAMES);
  // The stand-in for 93.184.216.34 listens on 127.0.0.2; an internal service on 127.0.0.1 at the same port is
  // what a delivery turned inward would reach.
  publicV4 = await startTlsReceiver('127.0.0.2', tls);
  internal = await startTlsReceiver('127.0.0.1', tls, publicV4.port);
  publicV6 = await startTlsReceiver('::1', tls);
  useDeliveryNetwork({
    resolve,
    reach: (address) => (address === PUBLIC_V4 ? '127.0.0.2' : address === PUBLIC_V6 ? '::1' : address),
    ca: tls.cert,
  });
  pipeline = await startEventPipeline(api);
});

afterAll(async () => {
  useDeliveryNetwork();
  await pipeline?.stop();
  await Promise.all([publicV4?.close(), internal?.close(), publicV6?.close()]);
});

const endpointCreation = (world: OrderWorld, url: string) =>
  api.call('POST', '/v15/webhook_endpoints', { token: world.merchant.token, body: { webhook_endpoint: { url, events: ['gift_card.value_added'] } } });
const loadOnce = (world: OrderWorld) =>
  loadGiftCard(api, world.merchant.token, world.merchant.merchant.merchant_id, {
    payment_token_data: world.user.user.payment_token_data,
    value_amount: 1000,
    external_identifier: `load-${randomUUID()}`,
  });
const eventIdOf = (delivery: { body: string }) => JSON.parse(delivery.body).event.id as string;

describe('endpoint URLs in production', () => {
  it('takes public IPv4 and IPv6 addresses and refuses every IPv6 form that carries a private IPv4 address', async () => {
    const world = await orderWorld();
    for (const url of [`https://${PUBLIC_V4}/hooks`, `https://[${PUBLIC_V6}]/hooks`, 'https://[::ffff:5db8:d822]/hooks', 'https://[2002:5db8:d822::1]/hooks']) {
      const response = await endpointCreation(world, url);
      expect(response.status, `${url}: ${response.text}`).toBe(200);
    }
    const refused = [
      'https://127.0.0.1/',
      'https://10.0.0.1/',
      'https://169.254.169.254/',
      'https://[::1]/',
      `http://${PUBLIC_V4}/`,
      'https://[::7f00:1]/',
      'https://[::ffff:127.0.0.1]/',
      'https://[::ffff:a9fe:a9fe]/',
      'https://[64:ff9b::7f00:1]/',
      'https://[64:ff9b::a00:1]/',
      'https://[64:ff9b:1::5db8:d822]/',
      'https://[2002:7f00:1::]/',
      'https://[2002:a9fe:a9fe::1]/',
      'https://[2001:0:7f00:1::a247:2bdd]/',
      'https://[2001:0:5db8:d822::80ff:fffe]/',
      'https://[fd00::1]/',
      'https://[fe80::1]/',
    ];
    for (const url of refused) {
      const response = await endpointCreation(world, url);
      expect(response.status, url).toBe(422);
      expect(response.body[0].error).toMatchObject({ object: 'webhook_endpoint', property: 'url', code: 'invalid_url' });
    }
  });
});

describe('delivery in production', () => {
  it('delivers to names resolving to public IPv4 and IPv6 addresses, connected to the checked address with the name for TLS and Host, and never to loopback', async () => {
    const world = await orderWorld();
    const port = publicV4.port;
    const secrets = new Map<string, string>();
    for (const url of [
      `https://hooks-v4.example.com:${port}/hooks`,
      `https://hooks-v6.example.com:${publicV6.port}/hooks`,
      `https://rebind.example.com:${port}/hooks`,
      `https://loopback.example.com:${port}/hooks`,
      `https://mapped.example.com:${port}/hooks`,
      `https://nat64.example.com:${port}/hooks`,
    ]) {
      const endpoint = await createEndpoint(api, world.merchant.token, url, ['gift_card.value_added']);
      secrets.set(new URL(url).hostname, endpoint.secret);
    }
    const loaded = await loadOnce(world);
    expect(loaded.status, loaded.text).toBe(200);
    const hostsAt = (receiver: typeof publicV4) => receiver.received.map((delivery) => delivery.host);
    await waitUntil(
      () =>
        hostsAt(publicV4).includes(`hooks-v4.example.com:${port}`) && hostsAt(publicV4).includes(`rebind.example.com:${port}`) && publicV6.received.length > 0,
      'the public deliveries',
      15_000,
    );
    // The refused names were resolved (and retried on the schedule) yet never reached the service on loopback.
    await waitUntil(
      () =>
        (resolutions.get('loopback.example.com') ?? 0) >= 2 &&
        (resolutions.get('mapped.example.com') ?? 0) >= 2 &&
        (resolutions.get('nat64.example.com') ?? 0) >= 2,
      'retried refusals',
      15_000,
    );
    expect(internal.received).toEqual([]);

    const [v4] = publicV4.received.filter((delivery) => delivery.host === `hooks-v4.example.com:${port}`);
    expect(v4!.servername).toBe('hooks-v4.example.com');
    expect(verifySignature(v4!.signature, v4!.body, secrets.get('hooks-v4.example.com')!)).toBe(true);
    expect(publicV6.received[0]).toMatchObject({ host: `hooks-v6.example.com:${publicV6.port}`, servername: 'hooks-v6.example.com' });
    expect(eventIdOf(publicV6.received[0]!)).toBe(eventIdOf(v4!));
    // The rebinding name was asked once for its one delivery: the connection went where the check looked.
    expect(resolutions.get('rebind.example.com')).toBe(1);
  });
});

describe('replays', () => {
  const replayTo = (world: OrderWorld, endpointId: string, after: string) =>
    api.call('POST', `/v15/webhook_endpoints/${endpointId}/replays`, { token: world.merchant.token, body: { replay: { after } } });

  async function replayWorld() {
    const world = await orderWorld();
    const url = `https://hooks-v4.example.com:${publicV4.port}/replays`;
    const [endpoint, other] = [
      await createEndpoint(api, world.merchant.token, url, ['gift_card.value_added']),
      await createEndpoint(api, world.merchant.token, `${url}/other`, ['gift_card.value_added']),
    ];
    for (let load = 0; load < 2; load++) expect((await loadOnce(world)).status).toBe(200);
    const [first] = await listAllEvents(api, world.merchant.token, 'gift_card.value_added');
    return { world, endpoint, other, after: first!.id };
  }

  it(`are limited per endpoint: ${WEBHOOK_REPLAYS_PER_ENDPOINT.limit} per quarter hour, then 429 with Retry-After; another endpoint is not`, async () => {
    const { world, endpoint, other, after } = await replayWorld();
    for (let replay = 0; replay < WEBHOOK_REPLAYS_PER_ENDPOINT.limit; replay++) expect((await replayTo(world, endpoint.id, after)).status).toBe(200);
    const refused = await replayTo(world, endpoint.id, after);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(WEBHOOK_REPLAYS_PER_ENDPOINT.windowSeconds);
    expect(refused.body[0].error).toMatchObject({ object: 'replay', property: 'base', code: 'rate_limited' });
    expect((await replayTo(world, other.id, after)).status).toBe(200);
  });

  it(`are capped at ${WEBHOOK_REPLAYS_PER_DAY.limit} a day per endpoint`, async () => {
    const { world, endpoint, after } = await replayWorld();
    // A day's replays made earlier, spread over quarter hours (the short window is not what refuses).
    for (let replay = 0; replay < WEBHOOK_REPLAYS_PER_DAY.limit; replay++) expect((await reserve(WEBHOOK_REPLAYS_PER_DAY, endpoint.id)).allowed).toBe(true);
    const refused = await replayTo(world, endpoint.id, after);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(WEBHOOK_REPLAYS_PER_ENDPOINT.windowSeconds);
  });
});
