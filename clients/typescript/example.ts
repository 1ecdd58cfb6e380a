/**
 * The typed client end to end against `npm start` (README.md): log in as the demo merchant, list its locations
 * page by page, load a gift card with an Idempotency-Key and send it again (answered once, replayed), and read a
 * typed error. Run: `npm start` in one terminal, then `npx tsx clients/typescript/example.ts` (settings from
 * .local/demo.json, which `npm start` writes).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { allItems, createLevelUpClient, LevelUpApiError, newIdempotencyKey, withIdempotencyKey } from './index.ts';

export interface ExampleSettings {
  baseUrl: string;
  /** An app's API key: a login names the app it logs in through. */
  apiKey: string;
  merchant: { id: number; username: string; password: string };
  /** A customer's QR code data, as a POS scans it. */
  paymentTokenData: string;
}

export async function runExample(settings: ExampleSettings, print: (line: string) => void = console.log) {
  // Filled in by the login below; the client reads it before each request.
  const session: { token?: string } = {};
  const client = createLevelUpClient({ baseUrl: settings.baseUrl, token: () => session.token });

  // 1. A login: the answer is typed (AccessToken), so is its error (the API's error array).
  const login = await client.POST('/v15/access_tokens', {
    body: { access_token: { api_key: settings.apiKey, username: settings.merchant.username, password: settings.merchant.password } },
  });
  if (!login.data) throw new LevelUpApiError(login.response.status, login.error);
  session.token = login.data.access_token.token;
  print(`logged in as merchant ${login.data.access_token.merchant_id}`);

  // 2. A paged list, every page: the client follows Link until 204.
  const locations = await allItems(client, '/v15/merchants/{merchant_id}/locations', { params: { path: { merchant_id: String(settings.merchant.id) } } });
  print(`${locations.length} locations: ${locations.map(({ location }) => location.name).join(', ')}`);

  // 3. Money: one key for the logical operation, the same on every retry, so the card is loaded once.
  const key = newIdempotencyKey();
  const load = () =>
    withIdempotencyKey(
      (idempotencyKey) =>
        client.POST('/v15/merchants/{merchant_id}/gift_card_value_additions', {
          params: { path: { merchant_id: String(settings.merchant.id) }, header: { 'Idempotency-Key': idempotencyKey } },
          body: { gift_card_value_addition: { payment_token_data: settings.paymentTokenData, value_amount: 1000 } },
        }),
      { key },
    );
  const first = await load();
  if (!first.data) throw new LevelUpApiError(first.response.status, first.error);
  const again = await load();
  if (!again.data) throw new LevelUpApiError(again.response.status, again.error);
  const replayed = again.response.headers.get('Idempotent-Replayed') === 'true';
  print(`loaded ${first.data.gift_card_value_addition.added_value_amount} cents, now ${first.data.gift_card_value_addition.new_value_at_merchant_amount}`);
  print(`sent again with the same key: ${replayed ? 'replayed, loaded once' : 'NOT replayed'}`);

  // 4. A typed error: every field of the error array is known to the compiler.
  const refused = await client.POST('/v15/merchants/{merchant_id}/gift_card_value_additions', {
    params: { path: { merchant_id: String(settings.merchant.id) } },
    body: { gift_card_value_addition: { payment_token_data: settings.paymentTokenData, value_amount: -1 } },
  });
  const detail = refused.error?.[0]?.error;
  print(`a negative load: ${refused.response.status} ${detail?.object}.${detail?.property} ${detail?.code ?? ''}: ${detail?.message}`);

  return {
    merchantId: login.data.access_token.merchant_id,
    locations: locations.length,
    load: first.data,
    replayed,
    refused: { status: refused.response.status, detail },
  };
}

/** The demo's settings, as `npm start` wrote them. */
function demoSettings(): ExampleSettings {
  const demoFile = fileURLToPath(new URL('../../.local/demo.json', import.meta.url));
  const demo = JSON.parse(readFileSync(demoFile, 'utf8')) as {
    base_url: string;
    app: { api_key: string };
    merchant: { id: number; username: string; password: string };
    users: { payment_token_data: string; has_card: boolean }[];
  };
  return {
    baseUrl: process.env.LEVELUP_BASE_URL ?? demo.base_url,
    apiKey: demo.app.api_key,
    merchant: demo.merchant,
    // A load charges the customer's card: a demo user who has one.
    paymentTokenData: demo.users.find((user) => user.has_card)!.payment_token_data,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await runExample(demoSettings());
