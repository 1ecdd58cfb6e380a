import { staffWriteHandler } from '#shared/http/management.ts';
import { CUSTOMER_NOT_FOUND, unlockForCustomer, unlockView } from '#shared/domain/customers/customers.ts';
import { customerUnlockBody, merchantCustomerParams } from '#shared/schemas/customers.ts';

/** POST /v15/merchants/:merchant_id/customers/:user_id/campaign_unlockings (owner, manager): one of the merchant's locked campaigns, for this customer. */
export const handler = staffWriteHandler(
  'customer-campaign-unlockings-create',
  {
    summary: 'Unlock a campaign for a customer (owner, manager)',
    description:
      'The POS unlocking\'s rules (`POST /v15/campaign_unlockings`): unlocking again replaces the unlocking (a later `expires_at` extends it); a campaign that is not this merchant\'s: 401. See docs/merchant-api.md, "Customers".',
    body: customerUnlockBody,
    bodyObject: 'campaign_unlocking',
    params: merchantCustomerParams,
    notFound: CUSTOMER_NOT_FOUND,
  },
  unlockView,
  (request, staff) => unlockForCustomer({ ...staff, userId: request.params.user_id, unlock: request.body.campaign_unlocking }),
);
