import { apiHandler, ok, requireStaff } from '#shared/http/handler.ts';
import { CUSTOMER_NOT_FOUND, customerAtMerchant, customerView } from '#shared/domain/customers/customers.ts';
import { merchantCustomerParams } from '#shared/schemas/customers.ts';

/** GET /v15/merchants/:merchant_id/customers/:user_id (any role): a customer's credit, gift card value and loyalty at this merchant only. */
export const handler = apiHandler(
  'customers-show',
  {
    summary: "A customer's balances and loyalty progress at this merchant (any role)",
    description:
      'Credit and gift card value usable here, loyalty progress per campaign of this merchant, held rewards and order totals; nothing of other merchants. A user with nothing at this merchant: 404 customer/id/not_found. See docs/merchant-api.md, "Customers".',
    params: merchantCustomerParams,
    notFound: CUSTOMER_NOT_FOUND,
  },
  async (request) => ok(customerView(await customerAtMerchant(requireStaff(request).merchantId, request.params.user_id))),
);
