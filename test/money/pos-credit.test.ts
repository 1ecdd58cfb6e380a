/**
 * POS credit checks (sdk-operations P4, P5, P6, P22) driven by the reference's bodies: every figure is
 * what the next proposed order offers and its completion applies (one definition: shared/domain/money/credit.ts).
 */
import { describe, expect, it } from 'vitest';
import { expectEmptyNotFound } from '../support/answers.ts';
import { useTestApi } from '../support/api.ts';
import { clientPayload as payload } from '../support/client-payloads.ts';
import { merchantFixture } from '../support/fixtures.ts';
import { locationFixture } from '../support/locations.ts';
import { orderWorld, placeOrder, propose, type OrderWorld, loadWorldGiftCard } from '../support/money.ts';
import { auditLedger } from '#shared/domain/money/ledger.ts';

const api = useTestApi();

const merchantHeader = (world: OrderWorld) => `token merchant="${world.merchant.token}"`;
/** The QR string as the app shows it: token data + "03" + tip (15 %) + colour + "LU" (sdk-operations A10). */
const withPreferences = (data: string) => `${data}0300FALU`;

async function worldWithCredit(credit: number, giftCard: number) {
  const world = await orderWorld({ credit });
  if (giftCard > 0) {
    const loaded = await loadWorldGiftCard(api, world, giftCard);
    expect(loaded.status).toBe(200);
  }
  return world;
}

describe('P4 GET /v15/locations/:location_id/credit', () => {
  it("answers the user's merchant-funded credit plus gift card value at the location's merchant (iOS, C#, Ruby, Android read these)", async () => {
    const world = await worldWithCredit(250, 1000);
    const reference = payload('ios_v15_locations_id_credit__show.json');
    for (const authorization of [`token ${world.user.token}`, `token user="${world.user.token}"`]) {
      const response = await api.call('GET', `/v15/locations/${world.location.location_id}/credit`, { authorization, body: {} });
      expect(response.status).toBe(reference.response_status);
      expect(Object.keys(response.body.credit)).toEqual(expect.arrayContaining(Object.keys(reference.variants[1].response_body_template.credit)));
      expect(response.body).toEqual({ credit: { total_amount: 1250, merchant_funded_credit_amount: 250 } });
    }
  });

  it('v14 without a token answers what a new user would have; v15 needs a user token with manage_user_campaigns', async () => {
    const world = await worldWithCredit(250, 0);
    const anonymous = await api.call('GET', `/v14/locations/${world.location.location_id}/credit`);
    expect(anonymous.body).toEqual({ credit: { total_amount: 0, merchant_funded_credit_amount: 0 } });
    const v14 = await api.call('GET', `/v14/locations/${world.location.location_id}/credit`, { token: world.user.token });
    expect(v14.body.credit.total_amount).toBe(250);
    for (const token of [undefined, '1234', world.merchant.token]) {
      const refused = await api.call('GET', `/v15/locations/${world.location.location_id}/credit`, { token });
      expect(refused.status).toBe(401);
    }
  });

  it('answers 404 with an empty body for an unknown location', async () => {
    const world = await orderWorld();
    const response = await api.call('GET', '/v15/locations/999999999/credit', { token: world.user.token });
    expectEmptyNotFound(response);
  });
});

describe('P5 /v15/locations/:location_id/merchant_funded_credit (deprecated, four client forms)', () => {
  it('answers discount, gift card and total for each form the clients send', async () => {
    const world = await worldWithCredit(2578, 1000);
    const qr = world.user.user.payment_token_data;
    const reference = payload('csharp_v15_locations_id_merchant_funded_credit__query.json');
    const expected = { merchant_funded_credit: { discount_amount: 2578, gift_card_amount: 1000, total_amount: 3578 } };
    const path = (version: string) => `/${version}/locations/${world.location.location_id}/merchant_funded_credit`;
    const [getForm, postWithQuery, postV3, rubyForm] = reference.forms;
    const template = (form: any) => JSON.parse(JSON.stringify(form.request_body_template).replaceAll('<qr>', qr).replaceAll('"<string or null>"', 'null'));
    const responses = [
      // 1. C# v2 and PowerShell: GET with the QR in the query string, untagged (v14) or tagged (PowerShell v15) token.
      await api.call(getForm.method, `${path('v14')}?payment_token_data=${qr}`, { token: world.merchant.token }),
      await api.call(getForm.method, `${path('v15')}?payment_token_data=${qr}`, { authorization: `token merchant=${world.merchant.token}` }),
      // 2. C# v2 overload with items: POST, query string kept, credit_query body.
      await api.call(postWithQuery.method, `${path('v14')}?payment_token_data=${qr}`, {
        token: world.merchant.token,
        body: { credit_query: { ...template(postWithQuery).credit_query, items: [] } },
      }),
      // 3. C# v3: POST with the QR in the body (nulls for the rest).
      await api.call(postV3.method, path('v15'), {
        token: world.merchant.token,
        body: { credit_query: { ...postV3.request_body_template.credit_query, payment_token_data: qr } },
      }),
      // 4. Ruby gem: GET with an unencoded QR in the query and a JSON body {}.
      await api.call(rubyForm.method, `${path('v15')}?payment_token_data=${withPreferences(qr)}`, { token: world.merchant.token, body: rubyForm.request_body }),
      // Docs: merchant and user tokens in one header instead of a QR code.
      await api.call('POST', path('v15'), {
        authorization: `token merchant="${world.merchant.token}", user="${world.user.token}"`,
        body: { credit_query: {} },
      }),
    ];
    for (const response of responses) {
      expect(response.status).toBe(200);
      expect(Object.keys(response.body.merchant_funded_credit).sort()).toEqual(Object.keys(reference.response_body.merchant_funded_credit).sort());
      expect(response.body).toEqual(expected);
    }
  });

  it("answers 401 for another merchant's location and 404 (empty) for an unknown QR code", async () => {
    const world = await worldWithCredit(100, 0);
    const other = await merchantFixture(world.app.app_id);
    const otherLocation = await locationFixture(other.merchant.merchant_id);
    const foreign = await api.call(
      'GET',
      `/v15/locations/${otherLocation.location_id}/merchant_funded_credit?payment_token_data=${world.user.user.payment_token_data}`,
      { token: world.merchant.token },
    );
    expect(foreign.status).toBe(401);
    const unknown = await api.call('GET', `/v15/locations/${world.location.location_id}/merchant_funded_credit?payment_token_data=LU02UNKNOWNLU`, {
      token: world.merchant.token,
    });
    expectEmptyNotFound(unknown);
    const none = await api.call('POST', `/v15/locations/${world.location.location_id}/merchant_funded_credit`, {
      token: world.merchant.token,
      body: { credit_query: {} },
    });
    expect(none.status).toBe(404);
  });
});

describe('P6 POST /v15/locations/:location_id/get_merchant_funded_gift_card_credit', () => {
  it('answers the gift card value at the merchant (C# body, tagged merchant token)', async () => {
    const world = await worldWithCredit(300, 2000);
    const reference = payload('csharp_v15_locations_id_get_merchant_funded_gift_card_credit__create.json');
    const body = {
      get_merchant_funded_gift_card_credit: {
        ...reference.request_body.get_merchant_funded_gift_card_credit,
        payment_token_data: withPreferences(world.user.user.payment_token_data),
      },
    };
    const response = await api.call(reference.method, `/v15/locations/${world.location.location_id}/get_merchant_funded_gift_card_credit`, {
      authorization: merchantHeader(world),
      body,
    });
    expect(response.status).toBe(reference.response_status);
    expect(response.body).toEqual({ merchant_funded_gift_card_credit: { total_amount: 2000 } });
  });

  it("answers 404 for an unknown QR code and 401 for another merchant's location", async () => {
    const world = await worldWithCredit(0, 0);
    const unknown = await api.call('POST', `/v15/locations/${world.location.location_id}/get_merchant_funded_gift_card_credit`, {
      authorization: merchantHeader(world),
      body: { get_merchant_funded_gift_card_credit: { payment_token_data: 'LU020000000THISISFAKE000000000LU' } },
    });
    expect(unknown.status).toBe(404);
    const other = await merchantFixture(world.app.app_id);
    const foreign = await api.call('POST', `/v15/locations/${world.location.location_id}/get_merchant_funded_gift_card_credit`, {
      token: other.token,
      body: { get_merchant_funded_gift_card_credit: { payment_token_data: world.user.user.payment_token_data } },
    });
    expect(foreign.status).toBe(401);
  });
});

describe('P22 POST /v15/qr_code_validations', () => {
  it('says a known code can hold gift card value and is linked to a user; an unknown one is 404', async () => {
    const world = await orderWorld();
    const reference = payload('docs_v15_qr_code_validations__create.json');
    for (const data of [world.user.user.payment_token_data, withPreferences(world.user.user.payment_token_data)]) {
      const response = await api.call(reference.method, reference.path, {
        authorization: `token merchant=${world.merchant.token}`,
        body: { qr_code_validation: { payment_token_data: data } },
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual(reference.response_body);
    }
    const unknown = await api.call(reference.method, reference.path, { token: world.merchant.token, body: reference.request_body });
    expect(unknown.status).toBe(404);
    expect(unknown.text).toBe('');
  });
});

describe('one definition of available credit', () => {
  it('the credit checks show what the next proposed order offers and its completion applies', async () => {
    const world = await worldWithCredit(700, 1500);
    const qr = world.user.user.payment_token_data;
    const location = world.location.location_id;
    const mfc = (await api.call('GET', `/v15/locations/${location}/merchant_funded_credit?payment_token_data=${qr}`, { token: world.merchant.token })).body
      .merchant_funded_credit;
    const giftCard = (
      await api.call('POST', `/v15/locations/${location}/get_merchant_funded_gift_card_credit`, {
        token: world.merchant.token,
        body: { get_merchant_funded_gift_card_credit: { payment_token_data: qr } },
      })
    ).body.merchant_funded_gift_card_credit;
    const userCredit = (await api.call('GET', `/v15/locations/${location}/credit`, { token: world.user.token })).body.credit;
    const proposed = await propose(api, world, { spend_amount: 10_000 });
    expect(proposed.body.proposed_order.discount_amount).toBe(mfc.discount_amount);
    expect(userCredit).toEqual({ total_amount: mfc.total_amount, merchant_funded_credit_amount: mfc.discount_amount });
    const completed = await placeOrder(api, world, { spend_amount: 10_000, applied_discount_amount: mfc.discount_amount });
    expect(completed.body.order.gift_card_total_amount).toBe(giftCard.total_amount);
    const after = (await api.call('GET', `/v15/locations/${location}/credit`, { token: world.user.token })).body.credit;
    expect(after).toEqual({ total_amount: 0, merchant_funded_credit_amount: 0 });
  });

  it('leaves the ledger balanced', async () => {
    expect((await auditLedger()).mismatches).toEqual([]);
  });
});
