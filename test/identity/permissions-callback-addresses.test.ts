/**
 * The permissions-request callback cannot be turned inward (docs/security.md): accepting a request POSTs a user
 * token to a URL the app chose, so it goes out as webhook deliveries do, in the production setting here
 * (ALLOW_HTTP_CALLBACKS=false: https only, no loopback). Receivers are https servers on loopback given public
 * names and addresses by a test network (`useDeliveryNetwork`), as test/events/webhook-addresses.test.ts does:
 * names resolving to loopback exercise the refusal, names resolving to a public address the delivery.
 */
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useDeliveryNetwork } from '#shared/domain/events/delivery.ts';
import { useTestApi } from '../support/api.ts';
import { appFixture, userFixture } from '../support/fixtures.ts';
import { fakeDns, PUBLIC_V4, selfSignedCertificate, startTlsReceiver } from '../support/webhooks.ts';

const api = useTestApi();

const NAMES = ['callback.example.com', 'loopback.example.com', 'rebind.example.com', 'mapped.example.com'];

let publicV4: Awaited<ReturnType<typeof startTlsReceiver>>;
/** An internal service on 127.0.0.1 at the public stand-in's port: counts every connection made to it, TLS or not. */
let internal: Server;
let internalConnections = 0;
const { resolve, resolutions } = fakeDns(NAMES);

beforeAll(async () => {
  process.env.ALLOW_HTTP_CALLBACKS = 'false';
  const tls = selfSignedCertificate(NAMES);
  // The stand-in for the public address listens on 127.0.0.2; an internal service on 127.0.0.1 at the same port
  // is what a callback turned inward would reach.
  publicV4 = await startTlsReceiver('127.0.0.2', tls);
  internal = createServer((socket) => {
    internalConnections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => internal.listen(publicV4.port, '127.0.0.1', resolve));
  useDeliveryNetwork({ resolve, reach: (address) => (address === PUBLIC_V4 ? '127.0.0.2' : address), ca: tls.cert });
});

afterAll(async () => {
  useDeliveryNetwork();
  process.env.ALLOW_HTTP_CALLBACKS = 'true';
  await Promise.all([publicV4?.close(), new Promise((resolve) => internal?.close(resolve))]);
});

/** An app with this callback asks a new user for a permission, and the user accepts: the app's poll afterwards. */
async function acceptWithCallback(callbackUrl: string) {
  const fixture = await appFixture({ callbackUrl });
  const token = (await api.call('POST', '/v15/access_tokens', { body: { api_key: fixture.apiKey, client_secret: fixture.clientSecret } })).body.access_token
    .token as string;
  const user = await userFixture(fixture.app.app_id);
  const asked = await api.call('POST', '/v15/apps/permissions_requests', {
    token,
    body: { permissions_request: { email: user.email, permission_keynames: ['read_user_basic_info'] } },
  });
  expect(asked.status, asked.text).toBe(200);
  const id = asked.body.permissions_request.id as number;
  const accepted = await api.call('PUT', `/v15/permissions_requests/${id}`, { token: user.token, body: { permissions_request: { state: 'accepted' } } });
  expect(accepted.status, accepted.text).toBe(200);
  return { id, poll: await api.call('GET', `/v15/apps/permissions_requests/${id}`, { token }) };
}

describe('the permissions-request callback in production', () => {
  it('reaches a name resolving to a public address, at the checked address with the name for TLS and Host', async () => {
    const url = `https://callback.example.com:${publicV4.port}/levelup/permissions`;
    const { id, poll } = await acceptWithCallback(url);
    const [delivery] = publicV4.received.filter((received) => received.host === `callback.example.com:${publicV4.port}`);
    expect(delivery).toMatchObject({ servername: 'callback.example.com' });
    const token = JSON.parse(delivery!.body).permissions_request.token as string;
    expect(JSON.parse(delivery!.body)).toEqual({ permissions_request: { id, state: 'accepted', token: expect.any(String) } });
    expect((await api.call('GET', '/v15/users', { token })).status).toBe(200);
    // Delivered by the callback: the poll shows no token.
    expect(poll.body.permissions_request).toMatchObject({ state: 'accepted', token: null });
  });

  it('never connects to loopback (by name, an IPv4-mapped address or a literal): the token is left to the poll', async () => {
    const port = publicV4.port;
    const before = publicV4.received.length;
    for (const url of [`https://127.0.0.1:${port}/cb`, `https://loopback.example.com:${port}/cb`, `https://mapped.example.com:${port}/cb`]) {
      const { poll } = await acceptWithCallback(url);
      expect(poll.body.permissions_request, url).toMatchObject({ state: 'accepted', token: expect.any(String) });
      expect((await api.call('GET', '/v15/users', { token: poll.body.permissions_request.token })).status).toBe(200);
    }
    expect(internalConnections).toBe(0);
    expect(publicV4.received.length).toBe(before);
  });

  it('resolves a name once: a rebinding name is reached at the public address it first gave, never at loopback', async () => {
    const { poll } = await acceptWithCallback(`https://rebind.example.com:${publicV4.port}/cb`);
    expect(poll.body.permissions_request).toMatchObject({ state: 'accepted', token: null });
    expect(publicV4.received.filter((received) => received.host === `rebind.example.com:${publicV4.port}`)).toHaveLength(1);
    expect(resolutions.get('rebind.example.com')).toBe(1);
    expect(internalConnections).toBe(0);
  });
});
