/**
 * The customer lookup by phone (issue 38; docs/merchant-api.md "Customers", docs/security.md "Customer lookups"):
 * any usual typed form finds the customer, the index moves with a phone change, a user with nothing here and another
 * merchant's customer answer exactly as a number nobody has, a number several customers here share is refused
 * without naming them, both or neither field is 422, the roles and the rate limit are the email lookup's, and the
 * operators' `index-phones` indexes users made before the index, idempotently and resumably.
 */
import { randomUUID } from 'node:crypto';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { db, table } from '#shared/db/client.ts';
import { CUSTOMER_LOOKUPS_PER_STAFF } from '#shared/domain/customers/customers.ts';
import { PhoneIndexEntry } from '#shared/domain/identity/phones.ts';
import { useTestApi } from '../support/api.ts';
import { runAdmin } from '../support/admin.ts';
import { posCredit, registerWithPhone } from '../support/customers.ts';
import { appFixture, merchantFixture } from '../support/fixtures.ts';
import { roleTokens, staffToken } from '../support/staff.ts';

const api = useTestApi();

let world: Awaited<ReturnType<typeof phoneWorld>>;

async function phoneWorld() {
  const app = await appFixture();
  const merchant = await merchantFixture(app.app.app_id);
  const other = await merchantFixture(app.app.app_id);
  return { app, merchant, merchantId: merchant.merchant.merchant_id, other, ...(await roleTokens(app.app.app_id, merchant.merchant.merchant_id)) };
}

beforeAll(async () => {
  world = await phoneWorld();
});

/** A user registered through POST /v15/users with `phone` as typed, and a token that may change their profile. */
const register = (phone: string | null) => registerWithPhone(api, world.app, phone, { first_name: 'Pat', last_name: 'Phone', emailPrefix: 'phone' });

/** Makes the user a customer of the merchant: merchant-funded credit, given by its POS. */
const makeCustomer = (email: string, merchant = world.merchant, value = 500) => posCredit(api, merchant.token, merchant.merchant.merchant_id, email, value);

const lookup = (customerLookup: Record<string, unknown>, token = world.owner) =>
  api.call('POST', `/v15/merchants/${world.merchantId}/customer_lookups`, { token, body: { customer_lookup: customerLookup } });

const changePhone = (token: string, phone: string | null) => api.call('PUT', '/v15/users', { token, body: { user: { phone } } });

describe('finding a customer by phone', () => {
  it('finds the customer by the number in any usual typed form, as the email lookup finds them', async () => {
    const customer = await register('(617) 555-0100');
    await makeCustomer(customer.email);
    const byEmail = await lookup({ email: customer.email });
    expect(byEmail.status, byEmail.text).toBe(200);
    expect(byEmail.body.customer).toMatchObject({ id: customer.userId, merchant_id: world.merchantId, credit_amount: 500 });
    for (const typed of ['(617) 555-0100', '+1 617-555-0100', '6175550100', ' 617.555.0100 ']) {
      const byPhone = await lookup({ phone: typed });
      expect(byPhone.status, `${typed}: ${byPhone.text}`).toBe(200);
      expect(byPhone.body).toEqual(byEmail.body);
    }
  });

  it('a phone change moves the index: the old number no longer finds them, the new one does; clearing it removes it', async () => {
    const customer = await register('617-555-0101');
    await makeCustomer(customer.email);
    expect((await lookup({ phone: '6175550101' })).status).toBe(200);
    const changed = await changePhone(customer.token, '+1 (617) 555-0102');
    expect(changed.status, changed.text).toBe(200);
    const oldNumber = await lookup({ phone: '6175550101' });
    expect(oldNumber.status, oldNumber.text).toBe(404);
    const newNumber = await lookup({ phone: '617 555 0102' });
    expect(newNumber.status, newNumber.text).toBe(200);
    expect(newNumber.body.customer.id).toBe(customer.userId);
    // The same number typed another way changes nothing in the index.
    expect((await changePhone(customer.token, '(617) 555-0102')).status).toBe(200);
    expect((await lookup({ phone: '6175550102' })).status).toBe(200);
    expect((await changePhone(customer.token, null)).status).toBe(200);
    expect((await lookup({ phone: '6175550102' })).status).toBe(404);
  });

  it("a user with nothing here, another merchant's customer and a number nobody has answer the same 404, as an unknown email does", async () => {
    await register('617-555-0103');
    const elsewhere = await register('617-555-0104');
    await makeCustomer(elsewhere.email, world.other);
    const unknownEmail = await lookup({ email: `nobody-${randomUUID()}@example.com` });
    expect(unknownEmail.status).toBe(404);
    expect(unknownEmail.body[0].error).toMatchObject({ object: 'customer', property: 'id', code: 'not_found' });
    for (const phone of ['617-555-0103', '617-555-0104', '617-555-0199', '555-0100']) {
      const response = await lookup({ phone });
      expect(response.status, `${phone}: ${response.text}`).toBe(404);
      expect(response.text).toBe(unknownEmail.text);
    }
  });

  it('a number several customers here share is refused (422 ambiguous) naming none; one customer among its users is found', async () => {
    const [first, second, notHere] = await Promise.all([register('617-555-0105'), register('6175550105'), register('617-555-0106')]);
    await Promise.all([makeCustomer(first.email), makeCustomer(second.email)]);
    const shared = await lookup({ phone: '(617) 555-0105' });
    expect(shared.status, shared.text).toBe(422);
    expect(shared.body[0].error).toMatchObject({ object: 'customer_lookup', property: 'phone', code: 'ambiguous' });
    for (const user of [first, second]) {
      expect(shared.text).not.toContain(String(user.userId));
      expect(shared.text).not.toContain(user.email);
    }
    // The second user of 617-555-0106 is another merchant's customer only: the one customer here is the answer.
    const customer = await register('+16175550106');
    await Promise.all([makeCustomer(customer.email), makeCustomer(notHere.email, world.other)]);
    const found = await lookup({ phone: '617-555-0106' });
    expect(found.status, found.text).toBe(200);
    expect(found.body.customer.id).toBe(customer.userId);
  });

  it('refuses both fields, neither field and a malformed phone with 422 in the error format', async () => {
    const both = await lookup({ email: 'someone@example.com', phone: '6175550100' });
    expect(both.status, both.text).toBe(422);
    expect(both.body[0].error).toMatchObject({ object: 'customer_lookup', property: 'base', code: 'invalid' });
    const neither = await lookup({});
    expect(neither.status, neither.text).toBe(422);
    expect(neither.body[0].error).toMatchObject({ object: 'customer_lookup', property: 'base', code: 'invalid' });
    const malformed = await lookup({ phone: 'call me' });
    expect(malformed.status, malformed.text).toBe(422);
    expect(malformed.body[0].error).toMatchObject({ object: 'customer_lookup', property: 'phone', code: 'invalid' });
  });

  it('answers every role as the email lookup does: owner, manager and staff 200, the shared login 403, another merchant 401', async () => {
    const customer = await register('617-555-0107');
    await makeCustomer(customer.email);
    for (const token of [world.owner, world.manager, world.staff]) expect((await lookup({ phone: '6175550107' }, token)).status).toBe(200);
    const sharedLogin = await lookup({ phone: '6175550107' }, world.merchant.token);
    expect(sharedLogin.status, sharedLogin.text).toBe(403);
    expect(sharedLogin.body[0].error.code).toBe('staff_login_required');
    const otherMerchant = await lookup({ phone: '6175550107' }, world.otherOwner);
    expect(otherMerchant.status, otherMerchant.text).toBe(401);
  });

  it('counts phone lookups in the same window as email lookups: 429 with Retry-After past it, by phone or email', async () => {
    const token = await staffToken(world.app.app.app_id, world.merchantId, 'staff');
    for (let attempt = 0; attempt < CUSTOMER_LOOKUPS_PER_STAFF.limit; attempt++) {
      const response = await lookup(attempt % 2 === 0 ? { phone: `617-555-${String(2000 + attempt)}` } : { email: `guess-${attempt}@example.com` }, token);
      expect(response.status, response.text).toBe(404);
    }
    for (const customerLookup of [{ phone: '617-555-0100' }, { email: 'guess@example.com' }]) {
      const refused = await lookup(customerLookup, token);
      expect(refused.status, refused.text).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(refused.body[0].error).toMatchObject({ object: 'customer_lookup', code: 'rate_limited' });
    }
  });
});

describe('index-phones (the operators backfill)', () => {
  it('indexes a user whose phone has no index entry, resumably page by page, and running it again changes nothing', async () => {
    const customer = await register('617-555-0108');
    await makeCustomer(customer.email);
    // A user made before the index: their entry is not there.
    await db().send(new DeleteCommand({ TableName: table(), Key: PhoneIndexEntry.key('+16175550108', customer.userId) }));
    expect((await lookup({ phone: '6175550108' })).status).toBe(404);

    // One page at a time, each run going on from the last one's `next`, until the table is done.
    let from: string | null = null;
    let pages = 0;
    let indexed = 0;
    do {
      const result = await runAdmin(['index-phones', '--page-size', '100', '--pages', '1', ...(from === null ? [] : ['--from', from])], api);
      expect(result.code, result.stderr).toBe(0);
      const report = JSON.parse(result.stdout) as { pages: number; indexed: number; next: string | null };
      expect(report.pages).toBe(1);
      indexed += report.indexed;
      from = report.next;
      pages += 1;
    } while (from !== null && pages < 100);
    expect(from).toBeNull();
    expect(indexed).toBeGreaterThanOrEqual(1);
    const found = await lookup({ phone: '(617) 555-0108' });
    expect(found.status, found.text).toBe(200);
    expect(found.body.customer.id).toBe(customer.userId);

    // Again from the start, all pages in one run: the same entries, the same answers.
    const again = await runAdmin(['index-phones'], api);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ indexed, next: null });
    expect((await lookup({ phone: '6175550108' })).body).toEqual(found.body);
  });

  it('refuses a --from that is not a position it printed', async () => {
    const result = await runAdmin(['index-phones', '--from', 'not-json'], api);
    expect(result.code).toBe(2);
  });
});
