/**
 * Per-client caps behind CloudFront (docs/security.md "Per-client caps behind CloudFront"): the
 * viewer address the edge forwards counts only with the edge's secret; otherwise `sourceIp` does.
 * Through the local gateway with EDGE_ORIGIN_SECRET set, as a deployed function has it.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { EDGE_SECRET_HEADER, VIEWER_ADDRESS_HEADER, clientAddress } from '#shared/http/client-address.ts';
import { REGISTRATION_LOOKUPS_PER_CLIENT } from '#shared/domain/identity/app-users.ts';
import { VIEWER_ADDRESS_FUNCTION_CODE } from '../../infra/constructs/edge-distribution.ts';
import { useTestApi } from '../support/api.ts';
import { appFixture } from '../support/fixtures.ts';

const SECRET = `edge-secret-${randomUUID()}`;
process.env.EDGE_ORIGIN_SECRET = SECRET;

const api = useTestApi();
let app: Awaited<ReturnType<typeof appFixture>>;

beforeAll(async () => {
  app = await appFixture();
});

const event = (sourceIp: string) => ({ requestContext: { http: { sourceIp } } }) as Parameters<typeof clientAddress>[0];

describe('clientAddress', () => {
  it('is the forwarded viewer address (IPv4 or IPv6) when the edge secret matches', () => {
    expect(clientAddress(event('130.176.1.1'), { [EDGE_SECRET_HEADER]: SECRET, [VIEWER_ADDRESS_HEADER]: '203.0.113.7' }, SECRET)).toBe('203.0.113.7');
    expect(clientAddress(event('130.176.1.1'), { [EDGE_SECRET_HEADER]: SECRET, [VIEWER_ADDRESS_HEADER]: '2001:db8::7' }, SECRET)).toBe('2001:db8::7');
  });

  it.each([
    ['no secret configured (local, or a stack without the distribution)', { [EDGE_SECRET_HEADER]: SECRET, [VIEWER_ADDRESS_HEADER]: '203.0.113.7' }, undefined],
    ['a wrong secret', { [EDGE_SECRET_HEADER]: `${SECRET}x`, [VIEWER_ADDRESS_HEADER]: '203.0.113.7' }, SECRET],
    ['no secret header (the stage called directly)', { [VIEWER_ADDRESS_HEADER]: '203.0.113.7' }, SECRET],
    ['an empty secret configured', { [EDGE_SECRET_HEADER]: '', [VIEWER_ADDRESS_HEADER]: '203.0.113.7' }, ''],
    ['no viewer address', { [EDGE_SECRET_HEADER]: SECRET }, SECRET],
    ['a viewer address that is no IP address', { [EDGE_SECRET_HEADER]: SECRET, [VIEWER_ADDRESS_HEADER]: '203.0.113.7, 10.0.0.1' }, SECRET],
  ])('is sourceIp with %s', (_, headers, secret) => {
    expect(clientAddress(event('130.176.1.1'), headers, secret)).toBe('130.176.1.1');
  });
});

describe("the distribution's viewer-request function", () => {
  // cloudfront-js-2.0 runs this source; here it runs as plain JavaScript against an event of that shape.
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- runs the CloudFront function's source as CloudFront would
  const handler = new Function(`${VIEWER_ADDRESS_FUNCTION_CODE}; return handler;`)() as (event: unknown) => { headers: Record<string, { value: string }> };

  it('sets the viewer address from the connection, replacing a value the client sent, and keeps the other headers', () => {
    const request = handler({
      viewer: { ip: '198.51.100.4' },
      request: {
        method: 'POST',
        uri: '/v15/access_tokens',
        headers: { [VIEWER_ADDRESS_HEADER]: { value: '10.9.8.7' }, authorization: { value: 'token abc' } },
      },
    });
    expect(request.headers[VIEWER_ADDRESS_HEADER]).toEqual({ value: '198.51.100.4' });
    expect(request.headers.authorization).toEqual({ value: 'token abc' });
  });
});

describe('registration lookups per client, through the edge', () => {
  const lookUp = (options: { from: string; headers?: Record<string, string> }) =>
    api.call('GET', `/v15/registration?api_key=${encodeURIComponent(app.apiKey)}&email=${encodeURIComponent(`nobody-${randomUUID()}@example.com`)}`, {
      localAddress: options.from,
      headers: options.headers,
    });
  const viaEdge = (viewer: string) => ({ [EDGE_SECRET_HEADER]: SECRET, [VIEWER_ADDRESS_HEADER]: viewer });
  // Several edge addresses, as CloudFront's many edge servers reach the API.
  const edges = ['127.0.0.41', '127.0.0.42', '127.0.0.43'];

  it('count per viewer, whichever edge address carries them; other viewers of the same edges are not capped', async () => {
    const viewer = '203.0.113.50';
    for (let lookup = 0; lookup < REGISTRATION_LOOKUPS_PER_CLIENT.limit; lookup++) {
      expect((await lookUp({ from: edges[lookup % edges.length]!, headers: viaEdge(viewer) })).status).toBe(404);
    }
    const capped = await lookUp({ from: edges[0]!, headers: viaEdge(viewer) });
    expect(capped.status).toBe(429);
    expect(Number(capped.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another viewer behind the same edge addresses.
    expect((await lookUp({ from: edges[0]!, headers: viaEdge('203.0.113.51') })).status).toBe(404);
  });

  it('a forged viewer address (no or a wrong secret) counts against the sending address', async () => {
    const from = '127.0.0.44';
    for (let lookup = 0; lookup < REGISTRATION_LOOKUPS_PER_CLIENT.limit; lookup++) {
      const forged: Record<string, string> = { [VIEWER_ADDRESS_HEADER]: `192.0.2.${lookup}` };
      if (lookup % 2 === 1) forged[EDGE_SECRET_HEADER] = 'guessed';
      expect((await lookUp({ from, headers: forged })).status).toBe(404);
    }
    expect((await lookUp({ from, headers: { [VIEWER_ADDRESS_HEADER]: '192.0.2.200' } })).status).toBe(429);
  });
});
