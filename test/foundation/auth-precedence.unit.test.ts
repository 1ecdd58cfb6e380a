import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { apiHandler, ok, type RawRequest } from '#shared/http/handler.ts';
import { contextWithRemaining } from '../support/lambda-invocation.ts';
import { handler as locationRewardsHandler } from '../../functions/location-rewards-list.ts';
import { handler as locationRewardSummaryHandler } from '../../functions/location-reward-summary-show.ts';

/**
 * The pipeline authorizes, then validates (shared/http/handler.ts, serveRequest): a request whose token is
 * missing, malformed, unknown, of another kind or lacking a permission is its 401 whatever its inputs, which
 * are not even parsed; an admitted one gets its body's error, then its query's, then its path's; a failed
 * token read is that failure. The token read is replaced here by one whose outcome and timing each test chooses.
 */
const read = vi.hoisted(() => {
  /** What the next token read resolves to (or rejects with). */
  const outcome: { credentials?: unknown; error?: unknown; atOnce?: boolean } = { credentials: undefined };
  /** And the order of what happened. */
  return { outcome, events: [] as string[] };
});

vi.mock('#shared/auth/tokens.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('#shared/auth/tokens.ts')>()),
  resolveCredentials: async () => {
    read.events.push('read sent');
    // Answers later, as DynamoDB would (or at once: a client that fails before sending).
    if (!read.outcome.atOnce) await new Promise((resolve) => setTimeout(resolve, 50));
    read.events.push('read answered');
    if ('error' in read.outcome) throw read.outcome.error;
    return read.outcome.credentials;
  },
}));

/**
 * The location read of the rewards-at-a-location routes (their prefetch, readRewardsLocation): noted when
 * sent; each read takes the next queued answer, else finds no location (the route's 404, before any Query).
 */
const locationReads = vi.hoisted(() => ({ answers: [] as (() => Promise<unknown>)[] }));

vi.mock('#shared/domain/merchants/locations.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('#shared/domain/merchants/locations.ts')>()),
  getLocation: async (locationId: number) => {
    read.events.push(`location ${locationId} read sent`);
    return (locationReads.answers.shift() ?? (async () => undefined))();
  },
}));

const base = { appId: 1, tokenHash: 'h', expiresAt: 4_000_000_000, ancestors: [] };
const merchant = { kind: 'merchant', merchantId: 7, permissions: ['manage_merchant_orders'], ...base } as const;
const powerlessMerchant = { ...merchant, permissions: [] };
const user = { kind: 'user', userId: 3, permissions: ['manage_user_campaigns'], unlimited: false, ...base } as const;
const app = { kind: 'app', permissions: [], ...base } as const;

const body = z.object({ order: z.object({ spend_amount: z.number().int() }) });
const query = z.object({ limit: z.coerce.number().int().optional() });
const params = z.object({ location_id: z.coerce.number().int().positive() });

/** A handler of `handlerName`'s route (its credential kind and permissions) whose schemas note when they run. */
function handlerOf(handlerName: string) {
  const noted = (schema: z.ZodType, name: string) =>
    z.preprocess((value) => {
      read.events.push(`${name} parsed`);
      return value;
    }, schema);
  return apiHandler(handlerName, { body: noted(body, 'body'), query: noted(query, 'query'), params: noted(params, 'path') }, async (request) =>
    ok({ kinds: Object.keys(request.credentials), body: request.body, query: request.query, params: request.params }),
  );
}

const validInputs = { body: { order: { spend_amount: 100 } }, query: { limit: '5' }, params: { location_id: '12' } };

async function invoke(
  handlerName: string,
  options: { authorization?: string; body?: unknown; query?: Record<string, string>; params?: Record<string, string>; handler?: ReturnType<typeof handlerOf> },
) {
  const event = {
    rawPath: '/precedence',
    headers: {
      host: 'localhost',
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.authorization ? { Authorization: options.authorization } : {}),
    },
    requestContext: { requestId: 'precedence', http: { method: 'POST', path: '/precedence', sourceIp: '127.0.0.1' } },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    queryStringParameters: options.query,
    pathParameters: options.params,
  } as unknown as APIGatewayProxyEventV2;
  const response = await (options.handler ?? handlerOf(handlerName))(event, contextWithRemaining(5_000, 'precedence'));
  const answer = JSON.parse(response.body || 'null') as { error: { object: string; property: string; code: string } }[];
  return {
    status: response.statusCode,
    errors: Array.isArray(answer) ? answer.map((entry) => `${entry.error.object}.${entry.error.property}:${entry.error.code}`) : answer,
  };
}

const token = `token ${'f'.repeat(64)}`;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

beforeEach(() => {
  read.events.length = 0;
  locationReads.answers.length = 0;
  read.outcome = { credentials: undefined };
  process.on('unhandledRejection', onUnhandled);
});

afterEach(async () => {
  await new Promise((resolve) => setTimeout(resolve, 20));
  process.off('unhandledRejection', onUnhandled);
  expect(unhandled).toEqual([]);
});

describe('authorization before validation', () => {
  it('validates the inputs once the token is admitted, and answers with them', async () => {
    read.outcome = { credentials: { merchant } };
    const answer = await invoke('proposed-orders-create', { authorization: token, ...validInputs });
    expect(answer).toEqual({
      status: 200,
      errors: { kinds: ['merchant'], body: { order: { spend_amount: 100 } }, query: { limit: 5 }, params: { location_id: 12 } },
    });
    expect(read.events).toEqual(['read sent', 'read answered', 'body parsed', 'query parsed', 'path parsed']);
  });

  it('answers 401 to an unknown, expired or revoked token whatever the inputs, without parsing them', async () => {
    read.outcome = { credentials: undefined };
    const invalid = { body: { order: {} }, query: { limit: 'x' }, params: { location_id: 'abc' } };
    expect(await invoke('proposed-orders-create', { authorization: token, ...invalid })).toEqual({ status: 401, errors: ['access_token.base:not_authorized'] });
    expect(await invoke('proposed-orders-create', { authorization: token, params: { location_id: 'abc' } })).toEqual({
      status: 401,
      errors: ['access_token.base:not_authorized'],
    });
    expect(await invoke('location-rewards-list', { authorization: token, ...invalid })).toEqual({ status: 401, errors: ['access_token.base:not_authorized'] });
    expect(read.events.filter((event) => event.endsWith('parsed'))).toEqual([]);
  });

  it('answers 401 to a token of another kind, or one lacking the permission, whatever the inputs', async () => {
    const invalid = { body: 'not an object', params: { location_id: '-1' } };
    read.outcome = { credentials: { user } };
    expect(await invoke('proposed-orders-create', { authorization: token, ...invalid })).toEqual({ status: 401, errors: ['access_token.base:not_authorized'] });
    expect(await invoke('events-list', { authorization: token, ...invalid })).toEqual({ status: 401, errors: ['access_token.base:not_authorized'] });
    read.outcome = { credentials: { merchant: powerlessMerchant } };
    expect(await invoke('proposed-orders-create', { authorization: token, ...invalid })).toEqual({
      status: 401,
      errors: ['access_token.permissions:missing_permission'],
    });
    read.outcome = { credentials: { user } };
    expect(await invoke('users-update', { authorization: token, ...invalid })).toEqual({ status: 401, errors: ['user.base:not_authorized'] });
    read.outcome = { credentials: { app } };
    expect(await invoke('location-rewards-list', { authorization: token, ...invalid })).toEqual({ status: 401, errors: ['access_token.base:not_authorized'] });
  });

  it('answers 401 without reading anything when the token is missing or the header malformed', async () => {
    const invalid = { body: { order: {} }, params: { location_id: 'abc' } };
    expect(await invoke('proposed-orders-create', invalid)).toEqual({ status: 401, errors: ['access_token.base:not_authorized'] });
    expect(await invoke('proposed-orders-create', { authorization: 'Bearer x', ...invalid })).toEqual({
      status: 401,
      errors: ['access_token.base:not_authorized'],
    });
    expect(await invoke('users-update', { authorization: 'token a, b, c', ...invalid })).toEqual({ status: 401, errors: ['access_token.base:not_authorized'] });
    expect(read.events).toEqual([]);
  });

  it('answers an admitted request its body error first, then its query error, then its path 404', async () => {
    read.outcome = { credentials: { merchant } };
    const valid = { authorization: token, ...validInputs };
    expect(await invoke('proposed-orders-create', { ...valid, body: { order: {} }, query: { limit: 'x' }, params: { location_id: 'abc' } })).toEqual({
      status: 422,
      errors: ['order.spend_amount:missing'],
    });
    expect(await invoke('proposed-orders-create', { ...valid, query: { limit: 'x' }, params: { location_id: 'abc' } })).toEqual({
      status: 422,
      errors: ['request.limit:invalid'],
    });
    expect(await invoke('proposed-orders-create', { ...valid, params: { location_id: 'abc' } })).toEqual({ status: 404, errors: null });
    read.outcome = { credentials: { user } };
    expect(await invoke('location-rewards-list', { ...valid, body: { order: {} } })).toEqual({ status: 422, errors: ['order.spend_amount:missing'] });
  });

  it('validates the request of an optional credential left out, or of an ignored token', async () => {
    expect(await invoke('location-rewards-list', { ...validInputs, body: { order: {} } })).toEqual({ status: 422, errors: ['order.spend_amount:missing'] });
    expect(read.events).toEqual(['body parsed']);
    // apps-users-create: the body's api_key is the credential; a token that is not a valid app token is ignored.
    read.outcome = { credentials: undefined };
    expect(await invoke('apps-users-create', { authorization: token, ...validInputs, body: { order: {} } })).toEqual({
      status: 422,
      errors: ['order.spend_amount:missing'],
    });
    read.outcome = { credentials: { app } };
    expect(await invoke('apps-users-create', { authorization: token, ...validInputs })).toMatchObject({ status: 200, errors: { kinds: ['app'] } });
  });

  it('answers a failed token read as before (500, nothing of the inputs), with no unhandled rejection', async () => {
    read.outcome = { error: Object.assign(new Error('Rate of requests exceeds the allowed throughput.'), { name: 'ThrottlingException' }) };
    for (const inputs of [validInputs, { body: { order: {} }, params: { location_id: 'abc' } }]) {
      expect(await invoke('proposed-orders-create', { authorization: token, ...inputs })).toEqual({ status: 500, errors: ['request.base:internal_error'] });
    }
    expect(await invoke('apps-users-create', { authorization: token, body: { order: {} } })).toEqual({ status: 500, errors: ['request.base:internal_error'] });
    // A read that fails before the pipeline's validation has even started (its rejection must not go unhandled meanwhile).
    read.outcome = { ...read.outcome, atOnce: true };
    expect(await invoke('proposed-orders-create', { authorization: token, body: { order: {} } })).toEqual({
      status: 500,
      errors: ['request.base:internal_error'],
    });
  });
});

/**
 * A route's prefetch (HandlerSpec.prefetch): a read keyed by the request as it came, started beside the
 * token's read before the inputs are validated, whose result the domain uses only once the token is admitted
 * and the inputs are valid (docs/security.md, "Prefetched reads").
 */
describe('prefetch: a read keyed by the raw request, sent while the token read is in flight', () => {
  /** The proposal's route with a prefetch `read` of the raw request, noted when it starts; the domain awaits it unless told not to. */
  function prefetching(read_: (raw: RawRequest) => Promise<unknown> | undefined, options: { awaited?: boolean } = {}) {
    const noted = (schema: z.ZodType, name: string) =>
      z.preprocess((value) => {
        read.events.push(`${name} parsed`);
        return value;
      }, schema);
    return apiHandler(
      'proposed-orders-create',
      {
        body: noted(body, 'body'),
        query: noted(query, 'query'),
        params: noted(params, 'path'),
        prefetch: (raw) => {
          read.events.push('prefetch sent');
          return read_(raw);
        },
      },
      async (request) => ok({ kinds: Object.keys(request.credentials), prefetched: options.awaited === false ? 'not awaited' : await request.prefetched }),
    );
  }
  const secret = { location: { name: 'SECRET LOCATION', merchant_id: 99 } };
  const never = () => new Promise<never>(() => {});

  it('sends it beside the token read, before validation, with the request as it came, and hands its result to the domain once admitted', async () => {
    read.outcome = { credentials: { merchant } };
    const answer = await invoke('proposed-orders-create', { authorization: token, ...validInputs, handler: prefetching(async (raw) => ({ read: raw })) });
    // The raw path id is the string the path carried (the validated one is the number 12).
    expect(answer).toEqual({
      status: 200,
      errors: { kinds: ['merchant'], prefetched: { read: { body: { order: { spend_amount: 100 } }, query: { limit: '5' }, params: { location_id: '12' } } } },
    });
    expect(read.events).toEqual(['read sent', 'prefetch sent', 'read answered', 'body parsed', 'query parsed', 'path parsed']);
  });

  it("starts none when the request names nothing to read (the route's prefetch answers undefined)", async () => {
    read.outcome = { credentials: { merchant } };
    expect(await invoke('proposed-orders-create', { authorization: token, ...validInputs, handler: prefetching(() => undefined) })).toEqual({
      status: 200,
      errors: { kinds: ['merchant'] },
    });
  });

  it('answers a refused token its 401 without waiting for the prefetch, with nothing of it in the answer', async () => {
    // A prefetch that never answers: a pipeline that waited for it would never answer either.
    for (const credentials of [undefined, { user }, { merchant: powerlessMerchant }]) {
      read.outcome = { credentials };
      const answer = await invoke('proposed-orders-create', { authorization: token, ...validInputs, handler: prefetching(never) });
      expect(answer.status).toBe(401);
      expect(JSON.stringify(answer)).not.toContain('SECRET');
    }
    read.outcome = { credentials: undefined };
    const answer = await invoke('proposed-orders-create', { authorization: token, ...validInputs, handler: prefetching(async () => secret) });
    expect(answer).toEqual({ status: 401, errors: ['access_token.base:not_authorized'] });
    expect(read.events.filter((event) => event === 'prefetch sent')).toHaveLength(4);
  });

  it('starts none without a token or for a malformed header; invalid inputs answer their error, after the token, with nothing of it', async () => {
    expect(await invoke('proposed-orders-create', { ...validInputs, handler: prefetching(async () => secret) })).toEqual({
      status: 401,
      errors: ['access_token.base:not_authorized'],
    });
    expect(await invoke('proposed-orders-create', { authorization: 'Bearer x', ...validInputs, handler: prefetching(async () => secret) })).toEqual({
      status: 401,
      errors: ['access_token.base:not_authorized'],
    });
    expect(read.events).not.toContain('prefetch sent');
    // With the token's read in flight the prefetch leaves beside it, before validation, so invalid inputs have sent it too;
    // their answer is still the token's 401 or the input's own error, never waiting for it nor showing it.
    read.outcome = { credentials: undefined };
    expect(await invoke('proposed-orders-create', { authorization: token, ...validInputs, body: { order: {} }, handler: prefetching(never) })).toEqual({
      status: 401,
      errors: ['access_token.base:not_authorized'],
    });
    read.outcome = { credentials: { merchant } };
    expect(await invoke('proposed-orders-create', { authorization: token, ...validInputs, body: { order: {} }, handler: prefetching(never) })).toEqual({
      status: 422,
      errors: ['order.spend_amount:missing'],
    });
  });

  it('keeps a failed prefetch (rejected or thrown) from surfacing unhandled: refused, admitted and not awaited, or awaited where the domain reads', async () => {
    const rejected = async () => {
      throw new Error('ProvisionedThroughputExceededException');
    };
    const thrown = () => {
      throw new Error('thrown before any read');
    };
    for (const failing of [rejected, thrown]) {
      read.outcome = { credentials: undefined };
      expect(await invoke('proposed-orders-create', { authorization: token, ...validInputs, handler: prefetching(failing) })).toEqual({
        status: 401,
        errors: ['access_token.base:not_authorized'],
      });
      read.outcome = { credentials: { merchant } };
      expect(await invoke('proposed-orders-create', { authorization: token, ...validInputs, handler: prefetching(failing, { awaited: false }) })).toMatchObject(
        { status: 200 },
      );
      // Awaited: its error is the domain's read's error (here unexpected: a 500 with no details).
      expect(await invoke('proposed-orders-create', { authorization: token, ...validInputs, handler: prefetching(failing) })).toEqual({
        status: 500,
        errors: ['request.base:internal_error'],
      });
    }
    // The afterEach hook checks that no rejection went unhandled.
  });
});

/**
 * The real routes with a prefetch keyed by the path alone: GET /v15/locations/:location_id/rewards and
 * /reward_summary read the location (it names the merchant) beside the token's read. Their token is optional:
 * without one the location is their first read, as before. Here no location is found, so an admitted request
 * is the route's 404 (empty body) before any Query.
 */
describe('prefetch: the location of the rewards at a location, read beside the token', () => {
  const routes = [
    ['location-rewards-list', locationRewardsHandler],
    ['location-reward-summary-show', locationRewardSummaryHandler],
  ] as const;
  const at = (handler: unknown) => ({ params: { location_id: '12' }, handler: handler as ReturnType<typeof handlerOf> });

  it('sends the location read before the token read answers; an admitted user then gets the 404 of an unknown location', async () => {
    for (const [name, handler] of routes) {
      read.events.length = 0;
      read.outcome = { credentials: { user } };
      expect(await invoke(name, { authorization: token, ...at(handler) })).toEqual({ status: 404, errors: null });
      expect(read.events).toEqual(['read sent', 'location 12 read sent', 'read answered']);
    }
  });

  it('answers a refused token its 401 as before without waiting for the location read (invalid path too, where none is sent)', async () => {
    for (const [name, handler] of routes) {
      for (const credentials of [undefined, { merchant }, { app }]) {
        read.events.length = 0;
        read.outcome = { credentials };
        // A location read that never answers: a pipeline that waited for it would never answer either.
        locationReads.answers.push(() => new Promise<never>(() => {}));
        const answer = await invoke(name, { authorization: token, ...at(handler) });
        expect(answer).toEqual({ status: 401, errors: ['access_token.base:not_authorized'] });
        expect(read.events).toEqual(['read sent', 'location 12 read sent', 'read answered']);
        locationReads.answers.length = 0;
      }
      read.events.length = 0;
      read.outcome = { credentials: undefined };
      expect(await invoke(name, { authorization: token, params: { location_id: 'abc' }, handler: at(handler).handler })).toEqual({
        status: 401,
        errors: ['access_token.base:not_authorized'],
      });
      read.outcome = { credentials: { user } };
      expect(await invoke(name, { authorization: token, params: { location_id: 'abc' }, handler: at(handler).handler })).toEqual({ status: 404, errors: null });
      expect(read.events).toEqual(['read sent', 'read answered', 'read sent', 'read answered']);
    }
  });

  it('reads the location once, after validation, without a token; a malformed header is its 401 with no read', async () => {
    for (const [name, handler] of routes) {
      read.events.length = 0;
      expect(await invoke(name, at(handler))).toEqual({ status: 404, errors: null });
      expect(read.events).toEqual(['location 12 read sent']);
      read.events.length = 0;
      expect(await invoke(name, { authorization: 'Bearer x', ...at(handler) })).toEqual({ status: 401, errors: ['access_token.base:not_authorized'] });
      expect(read.events).toEqual([]);
    }
  });

  it('reads the location again when the prefetch failed, answering as without one', async () => {
    for (const [name, handler] of routes) {
      read.events.length = 0;
      read.outcome = { credentials: { user } };
      locationReads.answers.push(async () => {
        throw Object.assign(new Error('Rate of requests exceeds the allowed throughput.'), { name: 'ThrottlingException' });
      });
      expect(await invoke(name, { authorization: token, ...at(handler) })).toEqual({ status: 404, errors: null });
      expect(read.events).toEqual(['read sent', 'location 12 read sent', 'read answered', 'location 12 read sent']);
    }
  });
});
