import { staffWriteHandler } from '#shared/http/management.ts';
import { CUSTOMER_NOT_FOUND, creditGrantView, grantCustomerCredit } from '#shared/domain/customers/customers.ts';
import { customerCreditGrantBody, merchantCustomerParams } from '#shared/schemas/customers.ts';

/** POST /v15/merchants/:merchant_id/customers/:user_id/credit_grants (owner, manager): merchant-funded credit, as the POS grant gives it. */
export const handler = staffWriteHandler(
  'customer-credit-grants-create',
  {
    summary: 'Grant a customer merchant-funded credit (owner, manager)',
    description:
      "The POS grant's rules (`POST /v15/merchant_funded_credits`): $500 at most at once, within the merchant's daily budget of credit given by hand, expiring after `duration_in_seconds` (1 year if absent). The staff member's own token approves it (`approved_by_staff_id`). Send an Idempotency-Key: the same key answers the first grant, never a second one. See docs/merchant-api.md, \"Customers\".",
    body: customerCreditGrantBody,
    bodyObject: 'credit_grant',
    params: merchantCustomerParams,
    notFound: CUSTOMER_NOT_FOUND,
  },
  creditGrantView,
  (request, staff) => grantCustomerCredit({ ...staff, userId: request.params.user_id, grant: request.body.credit_grant }),
);
