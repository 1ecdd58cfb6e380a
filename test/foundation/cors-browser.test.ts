import { randomUUID } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, useTestApi } from '../support/api.ts';
import { launchChromium } from '../support/chromium.ts';
import { locationFixture } from '../support/locations.ts';
import { orderWorld, type OrderWorld } from '../support/money.ts';

/**
 * CORS for browser apps (issue 37), in headless Chromium: a page served from another origin (a tiny static server on
 * another port) calls the local API with fetch, an Authorization header (so the browser sends a preflight first),
 * JSON bodies and an Idempotency-Key, and reads the exposed headers. A page from an origin the deployment did not
 * allow gets no Access-Control-Allow-Origin, so its browser refuses it the answer. The local gateway reads the same
 * settings (shared/http/cors.ts) API Gateway's corsPreflight gets (test/infra/cors.test.ts).
 */

/** A static server whose one page is the browser app; its origin is `http://localhost:<port>`. */
async function startStaticSite(): Promise<{ origin: string; close(): Promise<void> }> {
  const server: Server = createServer((_request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>Browser app</title><p>A browser app on its own origin.</p>');
  });
  const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
  return {
    origin: `http://localhost:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let allowedSite: Awaited<ReturnType<typeof startStaticSite>>;
let otherSite: Awaited<ReturnType<typeof startStaticSite>>;
// The deployment's allowed origins are known before the API starts (CORS_ALLOW_ORIGINS, read by the local gateway).
const api = useTestApi(async () => {
  allowedSite = await startStaticSite();
  otherSite = await startStaticSite();
  process.env.CORS_ALLOW_ORIGINS = `https://console.example.com,${allowedSite.origin}`;
  return startTestApi();
});
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let world: OrderWorld;

beforeAll(async () => {
  chromium = await launchChromium('cors');
  world = await orderWorld({ card: 'valid' });
  // Eleven locations: the first page of ten carries a Link to the next.
  for (let index = 0; index < 10; index++) await locationFixture(world.merchant.merchant.merchant_id);
});

afterAll(async () => {
  await chromium?.close();
  await allowedSite?.close();
  await otherSite?.close();
  delete process.env.CORS_ALLOW_ORIGINS;
});

async function pageOn(origin: string): Promise<Page> {
  const page = await chromium.browser.newPage();
  await page.goto(`${origin}/`);
  return page;
}

/** What the page's script sees of a cross-origin fetch to the API: the answer and the headers it may read, or the browser's refusal. */
interface SeenByPage {
  refused?: string;
  status?: number;
  headers?: Record<string, string | null>;
}

/** The browser app's calls, run inside the page: a paged list with the merchant token, then a gift card load sent twice under one key. */
function browserAppCalls(page: Page) {
  return page.evaluate(
    async ({ baseUrl, token, merchantId, paymentTokenData, key }) => {
      const read = (response: Response) => ({
        status: response.status,
        headers: Object.fromEntries(
          ['Link', 'X-Request-Id', 'Retry-After', 'Idempotent-Replayed', 'Content-Type'].map((name) => [name, response.headers.get(name)]),
        ),
      });
      const attempt = async (call: () => Promise<Response>) => {
        try {
          return read(await call());
        } catch (error) {
          return { refused: String(error) };
        }
      };
      const authorization = { Authorization: `token ${token}` };
      const list = await attempt(() => fetch(`${baseUrl}/v15/merchants/${merchantId}/locations`, { headers: authorization }));
      const load = () =>
        fetch(`${baseUrl}/v15/merchants/${merchantId}/gift_card_value_additions`, {
          method: 'POST',
          headers: { ...authorization, 'Content-Type': 'application/json', 'Idempotency-Key': key },
          body: JSON.stringify({ gift_card_value_addition: { payment_token_data: paymentTokenData, value_amount: 1000 } }),
        });
      const first = await attempt(load);
      const again = await attempt(load);
      return { list, first, again };
    },
    {
      baseUrl: api.baseUrl,
      token: world.merchant.token,
      merchantId: world.merchant.merchant.merchant_id,
      paymentTokenData: world.user.user.payment_token_data,
      key: randomUUID(),
    },
  );
}

/** One raw request (no browser) with the given headers: its status and headers. */
function rawRequest(method: string, path: string, headers: Record<string, string>): Promise<{ status: number; headers: IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${api.baseUrl}${path}`, { method, headers }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers }));
    });
    request.on('error', reject);
    request.end();
  });
}

describe('a browser app on an allowed origin', () => {
  it('calls with Authorization, Content-Type and Idempotency-Key, and reads Link, X-Request-Id and Idempotent-Replayed', async () => {
    const page = await pageOn(allowedSite.origin);
    const seen: Record<string, SeenByPage> = await browserAppCalls(page);
    expect(seen.list).toMatchObject({ status: 200, headers: { Link: expect.stringContaining('rel="next"'), 'X-Request-Id': expect.any(String) } });
    expect(seen.first).toMatchObject({ status: 200, headers: { 'Idempotent-Replayed': null } });
    expect(seen.again).toMatchObject({ status: 200, headers: { 'Idempotent-Replayed': 'true' } });
    await page.close();
  });

  it('gets its preflight answered by the gateway itself, with the allowed methods and headers and no function run', async () => {
    const preflight = await rawRequest('OPTIONS', `/v15/merchants/${world.merchant.merchant.merchant_id}/gift_card_value_additions`, {
      Origin: allowedSite.origin,
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers': 'authorization,content-type,idempotency-key',
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(allowedSite.origin);
    expect(preflight.headers['access-control-allow-headers']?.split(',')).toEqual(['Authorization', 'Content-Type', 'Idempotency-Key']);
    expect(preflight.headers['access-control-allow-methods']?.split(',')).toContain('POST');
    expect(preflight.headers['x-request-id']).toBeUndefined();
    // An actual answer carries the origin and the exposed headers, as API Gateway adds them.
    const answer = await rawRequest('GET', '/v15/nothing', { Origin: allowedSite.origin });
    expect(answer.headers['access-control-allow-origin']).toBe(allowedSite.origin);
    expect(answer.headers['access-control-expose-headers']?.split(',')).toEqual(expect.arrayContaining(['Link', 'Retry-After', 'X-Request-Id']));
    expect(answer.headers.vary).toContain('Origin');
  });
});

describe('a page on an origin the deployment did not allow', () => {
  it('gets no Access-Control-Allow-Origin, so its browser refuses it every answer', async () => {
    const page = await pageOn(otherSite.origin);
    const seen: Record<string, SeenByPage> = await browserAppCalls(page);
    // The preflight fails, so the browser never sends the requests: fetch rejects.
    for (const call of [seen.list, seen.first, seen.again]) expect(call).toEqual({ refused: expect.stringContaining('Failed to fetch') });
    await page.close();

    for (const [method, headers] of [
      ['OPTIONS', { Origin: otherSite.origin, 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'authorization' }],
      ['GET', { Origin: otherSite.origin }],
    ] as const) {
      const answer = await rawRequest(method, `/v15/merchants/${world.merchant.merchant.merchant_id}/locations`, headers);
      expect(answer.headers['access-control-allow-origin'], method).toBeUndefined();
      expect(answer.headers['access-control-allow-headers'], method).toBeUndefined();
    }
  });
});
