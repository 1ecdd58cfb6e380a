/**
 * A5-A8 of the SDK reference through HTTP, with the reference's payloads: categories, the interstitial
 * after an order (each documented type), feedback as iOS and Android send it, support tickets (stored,
 * listed by the operators' CLI, mailed to support). And `Server: LevelUp` on the answers the mobile SDKs
 * treat specially.
 */
import { randomUUID } from 'node:crypto';
import { inject, describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { clientPayload, expectShapeOf } from '../support/payloads.ts';
import { orderWorld, placeOrder, type OrderWorld } from '../support/money.ts';
import { userFixture } from '../support/fixtures.ts';
import { campaignFixture, uniqueCode } from '../support/loyalty.ts';
import { locationFixture } from '../support/locations.ts';
import { runAdmin } from '../support/admin.ts';
import { sentEmails } from '../../scripts/local/ses.ts';
import { createLocation, LocationInputError } from '#shared/domain/merchants/locations.ts';
import { getFeedback, setInterstitial } from '#shared/domain/app-surface/interstitials.ts';
import { DEFAULT_SUPPORT_EMAIL } from '#shared/domain/app-surface/tickets.ts';

const api = useTestApi();

async function worldWithOrder(): Promise<OrderWorld & { orderUuid: string }> {
  const world = await orderWorld();
  const completed = await placeOrder(api, world);
  expect(completed.status).toBe(200);
  return { ...world, orderUuid: completed.body.order.uuid as string };
}

describe('A5 GET /v14/categories', () => {
  it('answers every category with id and name as the SDKs read them, without a credential', async () => {
    const reference = clientPayload('ios_v14_categories__list.json');
    const response = await api.call('GET', '/v14/categories');
    expect(response.status).toBe(200);
    expect(response.headers.get('server')).toBe('LevelUp');
    expect(response.body.length).toBeGreaterThan(0);
    expectShapeOf(response.body, reference.response_body);
    const ids = response.body.map((row: { category: { id: number } }) => row.category.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("resolves every id in a location's categories, and a location cannot name an unknown one", async () => {
    const world = await orderWorld();
    await locationFixture(world.merchant.merchant.merchant_id, { categories: [4, 5] });
    const categories = await api.call('GET', '/v14/categories');
    const known = new Set(categories.body.map((row: { category: { id: number } }) => row.category.id));
    const listed = await api.call('GET', `/v15/apps/${world.app.app_id}/locations`);
    expect(listed.status).toBe(200);
    const named = listed.body.flatMap((row: { location: { categories: number[] } }) => row.location.categories);
    expect(named).toContain(4);
    for (const id of named) expect(known.has(id), `category ${id}`).toBe(true);
    await expect(locationFixture(world.merchant.merchant.merchant_id, { categories: [9999] })).rejects.toThrow(LocationInputError);
    await expect(
      createLocation({
        merchant_id: world.merchant.merchant.merchant_id,
        street_address: '1 Main St',
        locality: 'Boston',
        region: 'MA',
        postal_code: '02108',
        latitude: 42.35,
        longitude: -71.06,
        time_zone: 'America/New_York',
        categories: [0],
      }),
    ).rejects.toThrow(/categories/);
  });
});

describe('Server: LevelUp', () => {
  it('is on the 401, 404 and error answers the mobile SDKs read specially, and on successes', async () => {
    const unauthorized = await api.call('POST', '/v14/tickets', { body: { ticket: { body: 'hello' } } });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('server')).toBe('LevelUp');
    const noRoute = await api.call('GET', '/v15/no-such-thing');
    expect(noRoute.status).toBe(404);
    expect(noRoute.headers.get('server')).toBe('LevelUp');
    const world = await worldWithOrder();
    const missing = await api.call('GET', `/v15/orders/${world.orderUuid}/interstitial`, { token: world.user.token });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('server')).toBe('LevelUp');
    const invalid = await api.call('POST', '/v14/tickets', { token: world.user.token, body: { ticket: { body: ' ' } } });
    expect(invalid.status).toBe(422);
    expect(invalid.headers.get('server')).toBe('LevelUp');
  });
});

describe('A6 GET /v15/orders/:uuid/interstitial (and v14)', () => {
  it('answers 404 with the documented error when the merchant shows none', async () => {
    const reference = clientPayload('ios_v15_orders_uuid_interstitial__show.json').errors[0];
    const world = await worldWithOrder();
    for (const version of ['v15', 'v14']) {
      const response = await api.call('GET', `/${version}/orders/${world.orderUuid}/interstitial`, { token: world.user.token });
      expect(response.status).toBe(404);
      expect(response.body).toEqual(reference.response_body);
    }
  });

  it('answers the share and feedback interstitials in the shape of the iOS fixtures, with an image base URL', async () => {
    const reference = clientPayload('ios_v15_orders_uuid_interstitial__show.json');
    const world = await worldWithOrder();
    const merchantId = world.merchant.merchant.merchant_id;
    const [shareVariant, feedbackVariant] = reference.variants;
    const campaign = await campaignFixture(merchantId, 'spend');
    await setInterstitial({
      merchantId,
      type: 'share',
      title: '$1 at Test Merchant',
      calloutText: 'Give Money to Friends',
      descriptionHtml: '<p>Grab $1.00</p>',
      campaignId: campaign.campaign_id,
      share: shareVariant.response_body.interstitial.action,
    });
    const share = await api.call('GET', `/v15/orders/${world.orderUuid}/interstitial`, { token: world.user.token });
    expect(share.status).toBe(200);
    expectShapeOf(share.body, shareVariant.response_body);
    expect(share.body.interstitial.type).toBe('share');
    expect(share.body.interstitial.action).toMatchObject(shareVariant.response_body.interstitial.action);
    expect(share.body.interstitial.action.message_for_facebook).toBe('');
    expect(share.body.interstitial.image_url).toBe(`${api.baseUrl}/v14/campaigns/${campaign.campaign_id}/image`);

    await setInterstitial({
      merchantId,
      type: 'feedback',
      title: 'Give us Feedback',
      calloutText: 'Give us Feedback',
      descriptionHtml: '<p>Do you like the app?</p>',
      questionText: 'How would you rate this app?',
    });
    const feedback = await api.call('GET', `/v14/orders/${world.orderUuid}/interstitial`, { token: world.user.token });
    expect(feedback.status).toBe(200);
    expectShapeOf(feedback.body, feedbackVariant.response_body);
    expect(feedback.body.interstitial.action).toEqual({ question_text: 'How would you rate this app?' });
    // Without a campaign, the image is the order's location's.
    expect(feedback.body.interstitial.image_url).toBe(`${api.baseUrl}/v14/locations/${world.location.location_id}/image`);
  });

  it('answers claim (the campaign cohort code), url and no_action as documented; set by the operators CLI', async () => {
    const reference = clientPayload('ios_v15_orders_uuid_interstitial__show.json').action_shapes_from_docs;
    const world = await worldWithOrder();
    const merchantId = world.merchant.merchant.merchant_id;
    const code = uniqueCode('THANKS');
    const campaign = await campaignFixture(merchantId, 'value', { cohort_code: code, value_amount: 100 });
    const set = await runAdmin(
      ['set-interstitial', '--merchant-id', String(merchantId), '--type', 'claim', '--title', 'A gift', '--campaign-id', String(campaign.campaign_id)],
      api,
    );
    expect(set.code, set.stderr).toBe(0);
    const claim = await api.call('GET', `/v15/orders/${world.orderUuid}/interstitial`, { token: world.user.token });
    expect(claim.status).toBe(200);
    expectShapeOf(claim.body.interstitial.action, reference.claim.action);
    expect(claim.body.interstitial.action.code).toBe(code.toUpperCase());

    await setInterstitial({ merchantId, type: 'url', title: 'Our menu', url: 'https://example.com/menu', buttonText: 'See the menu' });
    const url = await api.call('GET', `/v15/orders/${world.orderUuid}/interstitial`, { token: world.user.token });
    expectShapeOf(url.body.interstitial.action, reference.url.action);
    expect(url.body.interstitial.action).toEqual({ url: 'https://example.com/menu', button_text: 'See the menu' });

    await setInterstitial({ merchantId, type: 'no_action', title: 'Thanks!' });
    const none = await api.call('GET', `/v15/orders/${world.orderUuid}/interstitial`, { token: world.user.token });
    expect(none.status).toBe(200);
    expect(none.body.interstitial.type).toBe('no_action');
    expect(none.body.interstitial.action).toBeNull();

    const refused = await runAdmin(['set-interstitial', '--merchant-id', String(merchantId), '--type', 'feedback', '--title', 'No question'], api);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/question/);
  });

  it("is another user's order: 404 as if missing; a token without create_orders or read_qr_code: 401", async () => {
    const world = await worldWithOrder();
    await setInterstitial({ merchantId: world.merchant.merchant.merchant_id, type: 'no_action', title: 'Thanks!' });
    const stranger = await userFixture(world.app.app_id);
    const other = await api.call('GET', `/v15/orders/${world.orderUuid}/interstitial`, { token: stranger.token });
    expect(other.status).toBe(404);
    expect(other.body[0].error.object).toBe('interstitial');
    const narrow = await userFixture(world.app.app_id, { permissions: ['read_user_basic_info'] });
    const refused = await api.call('GET', `/v15/orders/${world.orderUuid}/interstitial`, { token: narrow.token });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('server')).toBe('LevelUp');
    const qrOnly = await userFixture(world.app.app_id, { permissions: ['read_qr_code'] });
    // Same app, different user: still not theirs.
    expect((await api.call('GET', `/v15/orders/${world.orderUuid}/interstitial`, { token: qrOnly.token })).status).toBe(404);
  });
});

describe('A7 POST /v15/orders/:uuid/feedback', () => {
  it('takes the iOS body (rating as a string) and the Android body (rating as a number, comment null): 200, no body', async () => {
    const reference = clientPayload('ios_v15_orders_uuid_feedback__create.json');
    const world = await worldWithOrder();
    const ios = await api.call('POST', `/v15/orders/${world.orderUuid}/feedback`, { token: world.user.token, body: reference.request_body });
    expect(ios.status).toBe(200);
    expect(ios.text).toBe('');
    expect(await getFeedback(world.orderUuid)).toMatchObject({
      rating: 5,
      comment: 'No comment',
      question_text: 'Question?',
      user_id: world.user.user.user_id,
    });

    const android = await api.call('POST', `/v15/orders/${world.orderUuid}/feedback`, {
      token: world.user.token,
      body: { feedback: { ...reference.request_body_android.feedback, comment: null } },
    });
    expect(android.status).toBe(200);
    expect(await getFeedback(world.orderUuid)).toMatchObject({ rating: 1, comment: null, question_text: 'question_text' });

    const noRating = await api.call('POST', `/v15/orders/${world.orderUuid}/feedback`, {
      token: world.user.token,
      body: { feedback: { question_text: 'Q', rating: '' } },
    });
    expect(noRating.status).toBe(200);
    expect((await getFeedback(world.orderUuid))?.rating).toBeNull();
  });

  it('refuses a rating that is not a number from 0 to 10 (422), and feedback on an order not the user’s (404)', async () => {
    const world = await worldWithOrder();
    for (const rating of ['five', 11, -1, 2.5]) {
      const response = await api.call('POST', `/v15/orders/${world.orderUuid}/feedback`, {
        token: world.user.token,
        body: { feedback: { question_text: 'Q', rating } },
      });
      expect(response.status, String(rating)).toBe(422);
      expect(response.body[0].error).toMatchObject({ object: 'feedback', property: 'rating' });
    }
    const stranger = await userFixture(world.app.app_id);
    const other = await api.call('POST', `/v15/orders/${world.orderUuid}/feedback`, {
      token: stranger.token,
      body: { feedback: { question_text: 'Q', rating: 1 } },
    });
    expect(other.status).toBe(404);
    expect(await getFeedback(world.orderUuid)).toBeUndefined();
  });
});

describe('A8 POST /v14/tickets', () => {
  it('stores the ticket, answers it as the iOS fixture shows, lists it in the CLI and mails support', async () => {
    const reference = clientPayload('ios_v14_tickets__create.json');
    const world = await orderWorld();
    const body = `The app charged me twice ${randomUUID()}`;
    const response = await api.call('POST', '/v14/tickets', { token: world.user.token, body: { ticket: { body } } });
    expect(response.status).toBe(200);
    expectShapeOf(response.body, reference.response_body);
    expect(response.body.ticket).toMatchObject({ body, user_id: world.user.user.user_id });

    const listed = await runAdmin(['list-tickets', '--limit', '20'], api);
    expect(listed.code, listed.stderr).toBe(0);
    expect(
      JSON.parse(listed.stdout).tickets.some(
        (ticket: { body: string; ticket_id: number }) => ticket.body === body && ticket.ticket_id === response.body.ticket.id,
      ),
    ).toBe(true);

    const deadline = Date.now() + 5000;
    let mail: Awaited<ReturnType<typeof sentEmails>> = [];
    while (mail.length === 0 && Date.now() < deadline) {
      mail = (await sentEmails(inject('sesEndpoint'))).filter((email) => (email.body.text ?? '').includes(body));
      if (mail.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(mail).toHaveLength(1);
    expect(mail[0]!.destination.to.join(',')).toContain(DEFAULT_SUPPORT_EMAIL);
    expect(mail[0]!.body.text).toContain(world.user.email);
  });

  it('answers the documented 422 for a blank or missing body, and stores nothing', async () => {
    const reference = clientPayload('ios_v14_tickets__create.json').errors[0];
    const world = await orderWorld();
    for (const ticket of [{ body: '' }, { body: '   ' }, {}]) {
      const response = await api.call('POST', '/v14/tickets', { token: world.user.token, body: { ticket } });
      expect(response.status).toBe(422);
      expect(response.body[0].error).toMatchObject({ object: reference.response_body[0].error.object, property: reference.response_body[0].error.property });
      expect(response.body[0].error.message).toMatch(/^Body can't be blank/);
    }
    const tooLong = await api.call('POST', '/v14/tickets', { token: world.user.token, body: { ticket: { body: 'x'.repeat(5001) } } });
    expect(tooLong.status).toBe(422);
  });

  it('refuses the 11th ticket of a user within the hour with 429 and Retry-After', async () => {
    const world = await orderWorld();
    for (let index = 0; index < 10; index++) {
      expect((await api.call('POST', '/v14/tickets', { token: world.user.token, body: { ticket: { body: `ticket ${index}` } } })).status).toBe(200);
    }
    const refused = await api.call('POST', '/v14/tickets', { token: world.user.token, body: { ticket: { body: 'one more' } } });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
