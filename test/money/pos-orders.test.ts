/**
 * The in-store order calls as the POS clients send them (sdk-operations P1, P3): the reference's bodies,
 * header forms and variants through HTTP.
 */
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { clientPayload as payload } from '../support/client-payloads.ts';
import { orderWorld, placeOrder, type OrderWorld } from '../support/money.ts';
import { auditLedger } from '#shared/domain/money/ledger.ts';

const api = useTestApi();
const withPreferences = (data: string) => `${data}0300FALU`;
const tagged = (world: OrderWorld) => `token merchant="${world.merchant.token}"`;

describe('P1 POST /v15/proposed_orders as the POS clients send it', () => {
  it('split tender: the C# body with an exemption and the scanned QR string with its preference suffix', async () => {
    const world = await orderWorld({ credit: 2578 });
    const reference = payload('csharp_v15_proposed_orders__create_split_tender.json');
    const body = {
      proposed_order: {
        ...reference.request_body.proposed_order,
        discount_only: false,
        location_id: world.location.location_id,
        payment_token_data: withPreferences(world.user.user.payment_token_data),
      },
    };
    const response = await api.call(reference.method, reference.path, { authorization: tagged(world), body });
    expect(response.status).toBe(reference.response_status);
    // spend 100, exemption 40: at most 60 of the 2578 credit can apply.
    expect(response.body.proposed_order).toMatchObject({ uuid: expect.stringMatching(/^[0-9a-f]{32}$/), discount_amount: 60 });
    for (const key of Object.keys(reference.response_body.proposed_order)) expect(response.body.proposed_order).toHaveProperty(key);
    // PowerShell sends exemption_amount null and an unquoted tag.
    const powershell = await api.call('POST', '/v15/proposed_orders', {
      authorization: `token merchant=${world.merchant.token}`,
      body: {
        proposed_order: {
          ...reference.request_body.proposed_order,
          exemption_amount: null,
          tax_amount: null,
          location_id: world.location.location_id,
          payment_token_data: world.user.user.payment_token_data,
        },
      },
    });
    expect(powershell.status).toBe(200);
    expect(powershell.body.proposed_order.discount_amount).toBe(100);
  });
});

describe('P3 POST /v15/orders/:uuid/refund as the POS clients send it', () => {
  const refund = (world: OrderWorld, uuid: string, options: { body?: unknown; authorization?: string }) =>
    api.call('POST', `/v15/orders/${uuid}/refund`, { authorization: options.authorization ?? tagged(world), body: options.body });

  it('refunds with the Ruby gem\'s empty {"refund": {}}, the C# template, PowerShell\'s missing body and the docs body', async () => {
    const csharp = payload('csharp_v15_orders_uuid_refund__create.json');
    const docs = payload('docs_v15_orders_uuid_refund__create.json');
    const forms: { body?: unknown; managerConfirmation?: string }[] = [
      { body: { refund: {} } },
      { body: csharp.request_body_template },
      { body: undefined },
      { body: docs.request_body, managerConfirmation: docs.request_body.refund.manager_confirmation },
    ];
    for (const form of forms) {
      const world = await orderWorld({ managerConfirmation: form.managerConfirmation ?? null });
      const completed = await placeOrder(api, world, { spend_amount: 10 });
      const response = await refund(world, completed.body.order.uuid, { body: form.body });
      expect(response.status, response.text).toBe(200);
      expect(Object.keys(response.body.order).sort()).toEqual(Object.keys(csharp.response_body.order).sort());
      expect(response.body.order).toMatchObject({
        uuid: completed.body.order.uuid,
        spend_amount: 10,
        tip_amount: 0,
        total_amount: 10,
        loyalty_id: world.user.user.user_id,
        refunded_at: expect.any(String),
      });
    }
  });

  it('answers the documented errors (404 empty, 422 manager confirmation) and a repeat of a refund with the refunded order', async () => {
    const docs = payload('docs_v15_orders_uuid_refund__create.json');
    const world = await orderWorld({ managerConfirmation: '87168' });
    const completed = await placeOrder(api, world);
    const unknown = await refund(world, '0123456789abcdef0123456789abcdef', { body: { refund: {} } });
    expect(unknown.status).toBe(docs.errors[0].response_status);
    expect(unknown.text).toBe('');
    const wrong = await refund(world, completed.body.order.uuid, { body: { refund: {} } });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toEqual(docs.errors[2].response_body);
    expect((await refund(world, completed.body.order.uuid, { body: docs.request_body })).status).toBe(200);
    // Already refunded: a repeat of the refund (issue 34.2) answers the refunded order, refunding nothing more.
    const again = await refund(world, completed.body.order.uuid, { body: docs.request_body });
    expect(again.status).toBe(200);
    expect(again.body.order.refunded_at).not.toBeNull();
  });

  it('leaves the ledger balanced', async () => {
    expect((await auditLedger()).mismatches).toEqual([]);
  });
});
