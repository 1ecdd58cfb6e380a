import { apiHandler, ok, requireStaff } from '#shared/http/handler.ts';
import { CUSTOMER_NOT_FOUND, customerView, findCustomer } from '#shared/domain/customers/customers.ts';
import { customerLookupBody, merchantCustomersParams } from '#shared/schemas/customers.ts';

/** POST /v15/merchants/:merchant_id/customer_lookups (any role): the merchant's customer with this exact email or phone, and their standing here. */
export const handler = apiHandler(
  'customer-lookups-create',
  {
    summary: "Find the merchant's customer by exact email or phone (any role)",
    description:
      'A read sent as a POST so that the email or phone stays out of URLs and logs. Exactly one of `email` and `phone` (422 otherwise). A user with nothing at this merchant answers 404 customer/id/not_found exactly as an email or phone nobody registered does; a phone shared by several of the merchant\'s customers answers 422 customer_lookup/phone/ambiguous (look them up by email); lookups are counted per staff member (30 in 15 minutes) and per merchant (300 an hour), then 429 with Retry-After. See docs/merchant-api.md, "Customers".',
    body: customerLookupBody,
    bodyObject: 'customer_lookup',
    params: merchantCustomersParams,
    notFound: CUSTOMER_NOT_FOUND,
  },
  async (request) => ok(customerView(await findCustomer(requireStaff(request), request.body.customer_lookup))),
);
