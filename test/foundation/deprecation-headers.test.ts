import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEPRECATION_HEADERS, SUNSET_AT } from '#shared/http/deprecation.ts';
import { useTestApi } from '../support/api.ts';
import { orderWorld } from '../support/money.ts';

/**
 * Deprecated routes announce it on every answer (docs/versioning.md): `Deprecation` (RFC 9745) and `Sunset` (RFC 8594),
 * from the same handler flag that marks the operation `deprecated: true` in the OpenAPI document; routes that are not
 * deprecated carry neither.
 */
const api = useTestApi();

const document = JSON.parse(readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, { deprecated?: boolean }>>;
};
const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({ method: method.toUpperCase(), path, deprecated: operation.deprecated === true })),
);
const deprecated = operations.filter((operation) => operation.deprecated);
/** A concrete path for a templated one (an id that exists nowhere: the answer's status does not matter here). */
const concrete = (path: string) => path.replace(/\{[^}]+\}/g, '1');

describe('Deprecation and Sunset headers', () => {
  it("are on a deprecated route's success: the POS credit check answers 200 with both", async () => {
    const world = await orderWorld({ card: 'valid' });
    const answer = await api.call(
      'GET',
      `/v15/locations/${world.location.location_id}/merchant_funded_credit?payment_token_data=${world.user.user.payment_token_data}`,
      {
        token: world.merchant.token,
      },
    );
    expect(answer.status).toBe(200);
    expect(answer.headers.get('Deprecation')).toBe(DEPRECATION_HEADERS.Deprecation);
    expect(answer.headers.get('Deprecation')).toMatch(/^@\d+$/);
    expect(answer.headers.get('Sunset')).toBe(SUNSET_AT.toUTCString());
    expect(new Date(answer.headers.get('Sunset')!).getTime()).toBe(SUNSET_AT.getTime());
  });

  it('are on every answer of every operation the document marks deprecated, errors included, and on no other operation', async () => {
    expect(deprecated.map(({ method, path }) => `${method} ${path}`)).toContain('POST /v15/orders');
    for (const [index, operation] of operations.entries()) {
      // No credential: a 401 (or the route's own 4xx), still the route's answer. A fresh loopback address every 40
      // requests keeps the gateway's per-address limit (burst 50) from answering instead of the route.
      const localAddress = `127.0.1.${1 + Math.floor(index / 40)}`;
      const answer = await api.call(operation.method, concrete(operation.path), {
        localAddress,
        ...(operation.method === 'GET' || operation.method === 'DELETE' ? {} : { body: {} }),
      });
      const where = `${operation.method} ${operation.path} (${answer.status})`;
      if (operation.deprecated) {
        expect(answer.status, where).toBeGreaterThanOrEqual(400);
        expect(answer.headers.get('Deprecation'), where).toBe(DEPRECATION_HEADERS.Deprecation);
        expect(answer.headers.get('Sunset'), where).toBe(DEPRECATION_HEADERS.Sunset);
      } else {
        expect(answer.headers.get('Deprecation'), where).toBeNull();
        expect(answer.headers.get('Sunset'), where).toBeNull();
      }
    }
  });
});
