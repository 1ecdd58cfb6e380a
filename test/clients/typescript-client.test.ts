/**
 * The typed TypeScript client (clients/typescript/, issue 37) driving the local stack over HTTP: a login, a paged
 * list followed to its 204, a money POST whose answer is lost and retried under the same Idempotency-Key (loaded
 * once), typed error bodies, and the README's example script end to end.
 */
import { beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import {
  allItems,
  createLevelUpClient,
  LevelUpApiError,
  pages,
  withIdempotencyKey,
  type ApiErrorDetail,
  type ApiErrors,
  type LevelUpClient,
  type paths,
} from '../../clients/typescript/index.ts';
import { runExample } from '../../clients/typescript/example.ts';
import { useTestApi } from '../support/api.ts';
import { appFixture, merchantFixture } from '../support/fixtures.ts';
import { locationFixture } from '../support/locations.ts';
import { orderWorld, type OrderWorld } from '../support/money.ts';

const api = useTestApi();

/** Every request the client sent and the status it got, in order. */
function recordingFetch() {
  const sent: { url: string; status: number; idempotencyKey: string | null; authorization: string | null }[] = [];
  const fetchAndRecord = async (request: Request) => {
    const [idempotencyKey, authorization] = [request.headers.get('Idempotency-Key'), request.headers.get('Authorization')];
    const response = await fetch(request);
    sent.push({ url: request.url, status: response.status, idempotencyKey, authorization });
    return response;
  };
  return { sent, fetch: fetchAndRecord };
}

describe('a login', () => {
  it('logs a merchant in with username and password, and the token it answered authorizes the next calls', async () => {
    const { app, apiKey } = await appFixture({ global: true });
    const merchant = await merchantFixture(app.app_id);
    // Filled in by the login below; the client reads it before each request.
    const session: { token?: string } = {};
    const client = createLevelUpClient({ baseUrl: api.baseUrl, token: () => session.token });

    const login = await client.POST('/v15/access_tokens', {
      body: { access_token: { api_key: apiKey, username: merchant.username, password: merchant.password } },
    });
    expect(login.response.status).toBe(200);
    expect(login.data?.access_token.merchant_id).toBe(merchant.merchant.merchant_id);
    session.token = login.data!.access_token.token;

    // A call that needs the merchant's credential: 204 (no events yet) with the token, 401 without (below).
    const events = await client.GET('/v15/events');
    expect(events.response.status).toBe(204);

    const wrong = await client.POST('/v15/access_tokens', { body: { access_token: { api_key: apiKey, username: merchant.username, password: 'not it' } } });
    expect(wrong.response.status).toBe(422);
    expect(wrong.data).toBeUndefined();
    expect(wrong.error?.[0]?.error).toMatchObject({ object: expect.any(String), property: expect.any(String), message: expect.any(String) });
  });
});

describe('paging', () => {
  it('follows Link: rel="next" to the 204 and yields every item once, with the client\'s token on every page', async () => {
    const { app } = await appFixture({ global: true });
    const merchant = await merchantFixture(app.app_id);
    const made = new Set<number>();
    for (let index = 0; index < 23; index++) made.add((await locationFixture(merchant.merchant.merchant_id, { name: `Shop ${index}` })).location_id);
    const recorder = recordingFetch();
    const client = createLevelUpClient({ baseUrl: api.baseUrl, token: merchant.token, fetch: recorder.fetch });

    const items = await allItems(client, '/v15/merchants/{merchant_id}/locations', {
      params: { path: { merchant_id: String(merchant.merchant.merchant_id) } },
    });
    expectTypeOf(items[0]!.location.id).toEqualTypeOf<number>();
    expect(items.map(({ location }) => location.id).sort()).toEqual([...made].sort());
    // Three pages of 10, 10 and 3 (each 200 with a Link, the last one too), then the Link after the last item: 204.
    expect(recorder.sent.map((request) => request.status)).toEqual([200, 200, 200, 204]);
    expect(new Set(recorder.sent.map((request) => request.url)).size).toBe(4);
    expect(recorder.sent.map((request) => request.authorization)).toEqual(Array(4).fill(`token ${merchant.token}`));
  });

  it('stops where the caller breaks, and throws the typed error of a page that fails', async () => {
    const { app } = await appFixture({ global: true });
    const merchant = await merchantFixture(app.app_id);
    for (let index = 0; index < 12; index++) await locationFixture(merchant.merchant.merchant_id);
    const recorder = recordingFetch();
    const client = createLevelUpClient({ baseUrl: api.baseUrl, token: merchant.token, fetch: recorder.fetch });
    for await (const page of pages(client, '/v15/merchants/{merchant_id}/locations', {
      params: { path: { merchant_id: String(merchant.merchant.merchant_id) } },
    })) {
      expect(page).toHaveLength(10);
      break;
    }
    expect(recorder.sent).toHaveLength(1);

    // A cursor no Link of ours made: the 422 surfaces as LevelUpApiError with the API's error array.
    const refused = allItems(client, '/v15/merchants/{merchant_id}/locations', {
      params: { path: { merchant_id: String(merchant.merchant.merchant_id) }, query: { after: 'not-a-cursor' } },
    });
    await expect(refused).rejects.toBeInstanceOf(LevelUpApiError);
    await expect(refused).rejects.toMatchObject({ status: 422, errors: [{ error: { object: 'request', property: 'after' } }] });
  });
});

describe('Idempotency-Key', () => {
  let world: OrderWorld;
  let client: LevelUpClient;
  const loadPath = '/v15/merchants/{merchant_id}/gift_card_value_additions' as const;
  const load = (key: string, via: LevelUpClient, amount = 1000) =>
    via.POST(loadPath, {
      params: { path: { merchant_id: String(world.merchant.merchant.merchant_id) }, header: { 'Idempotency-Key': key } },
      body: { gift_card_value_addition: { payment_token_data: world.user.user.payment_token_data, value_amount: amount } },
    });

  beforeAll(async () => {
    world = await orderWorld({ card: 'valid' });
    client = createLevelUpClient({ baseUrl: api.baseUrl, token: world.merchant.token });
  });

  it('retries a load whose answer was lost with the same key: the card is loaded once and the retry replays the first answer', async () => {
    const recorder = recordingFetch();
    let lost = 0;
    // The request reaches the API and commits, but its answer never reaches the client (a dropped connection).
    const losingFirstAnswer = async (request: Request) => {
      const response = await recorder.fetch(request);
      if (lost++ === 0) throw new TypeError('fetch failed: connection reset');
      return response;
    };
    const flaky = createLevelUpClient({ baseUrl: api.baseUrl, token: world.merchant.token, fetch: losingFirstAnswer });

    const answer = await withIdempotencyKey((key) => load(key, flaky), { sleep: async () => undefined });
    expect(answer.response.status).toBe(200);
    expect(answer.response.headers.get('Idempotent-Replayed')).toBe('true');
    expect(answer.data?.gift_card_value_addition).toMatchObject({
      added_value_amount: 1000,
      old_value_at_merchant_amount: 0,
      new_value_at_merchant_amount: 1000,
    });
    expect(recorder.sent.map((request) => request.status)).toEqual([200, 200]);
    expect(new Set(recorder.sent.map((request) => request.idempotencyKey)).size).toBe(1);

    // Loaded once: the next load (another operation, another key) starts from 1000, not 2000.
    const next = await withIdempotencyKey((key) => load(key, client, 1500));
    expect(next.data?.gift_card_value_addition).toMatchObject({ old_value_at_merchant_amount: 1000, new_value_at_merchant_amount: 2500 });
  });

  it('gives concurrent sends of one operation one load between them', async () => {
    const before = await withIdempotencyKey((key) => load(key, client, 1000));
    const balance = before.data!.gift_card_value_addition.new_value_at_merchant_amount;
    const key = crypto.randomUUID();
    // Four sends of one operation at once (a double-tapped button, a retry racing its original): one key between them.
    const answers = await Promise.all(Array.from({ length: 4 }, () => withIdempotencyKey((sameKey) => load(sameKey, client, 2500), { key })));
    for (const answer of answers)
      expect(answer.data?.gift_card_value_addition).toMatchObject({ old_value_at_merchant_amount: balance, new_value_at_merchant_amount: balance + 2500 });
    const after = await withIdempotencyKey((next) => load(next, client, 1000));
    expect(after.data?.gift_card_value_addition.old_value_at_merchant_amount).toBe(balance + 2500);
  });

  it('does not retry a final answer: a 422 is returned at once, with its typed error array', async () => {
    const recorder = recordingFetch();
    const counted = createLevelUpClient({ baseUrl: api.baseUrl, token: world.merchant.token, fetch: recorder.fetch });
    const refused = await withIdempotencyKey((key) => load(key, counted, -1));
    expect(recorder.sent).toHaveLength(1);
    expect(refused.response.status).toBe(422);
    expectTypeOf(refused.error).toExtend<ApiErrors | undefined>();
    const detail: ApiErrorDetail | undefined = refused.error?.[0]?.error;
    expect(detail).toEqual({ object: 'gift_cards/value_adder', property: 'base', message: 'You must load a positive amount.' });
  });
});

describe('typed paths and bodies', () => {
  it('types request bodies from the document: amounts are integers of cents, the wrapper key is required', () => {
    type CompletedOrderBody = paths['/v15/completed_orders']['post']['requestBody']['content']['application/json'];
    expectTypeOf<CompletedOrderBody['completed_order']['spend_amount']>().toEqualTypeOf<number>();
    expectTypeOf<CompletedOrderBody>().toHaveProperty('completed_order');
    expectTypeOf<{ completed_order?: unknown }>().not.toExtend<CompletedOrderBody>();
  });
});

describe('typed errors', () => {
  it('answers a 401 without a token as a typed error value, never an exception', async () => {
    const anonymous = createLevelUpClient({ baseUrl: api.baseUrl });
    const unauthorized = await anonymous.GET('/v15/events');
    expect(unauthorized.response.status).toBe(401);
    expect(unauthorized.data).toBeUndefined();
    const detail = unauthorized.error?.[0]?.error;
    expectTypeOf(detail).toEqualTypeOf<ApiErrorDetail | undefined>();
    expect(detail).toMatchObject({ object: expect.any(String), property: expect.any(String), message: expect.any(String) });
    expect(unauthorized.response.headers.get('WWW-Authenticate')).toBeTruthy();
  });
});

describe('the example script (clients/typescript/example.ts)', () => {
  it('runs end to end against the local stack', async () => {
    const world = await orderWorld({ card: 'valid' });
    const { apiKey } = await appFixture({ global: true });
    const lines: string[] = [];
    const outcome = await runExample(
      {
        baseUrl: api.baseUrl,
        apiKey,
        merchant: { id: world.merchant.merchant.merchant_id, username: world.merchant.username, password: world.merchant.password },
        paymentTokenData: world.user.user.payment_token_data,
      },
      (line) => lines.push(line),
    );
    expect(outcome).toMatchObject({ merchantId: world.merchant.merchant.merchant_id, locations: 1, replayed: true, refused: { status: 422 } });
    expect(outcome.load.gift_card_value_addition).toMatchObject({ added_value_amount: 1000, new_value_at_merchant_amount: 1000 });
    expect(lines).toHaveLength(5);
  });
});
