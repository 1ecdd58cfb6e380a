import { apiHandler, requireMerchant } from '#shared/http/handler.ts';
import { idempotentNoContent } from '#shared/http/idempotency.ts';
import { auditContextOf } from '#shared/domain/audit/audit-log.ts';
import { grantMerchantFundedCredit } from '#shared/domain/pos/credit-grants.ts';
import { merchantFundedCreditGrantBody } from '#shared/schemas/pos-money.ts';

/** POST /v15/merchant_funded_credits: give a user (by email) credit usable at the merchant, expiring after duration_in_seconds. 204. */
export const handler = apiHandler(
  'merchant-funded-credits-create',
  { summary: 'Give a user merchant-funded credit by email', body: merchantFundedCreditGrantBody, bodyObject: 'merchant_funded_credit' },
  async (request) => {
    const merchant = requireMerchant(request);
    return idempotentNoContent(request, (storeResponse) =>
      grantMerchantFundedCredit({ merchantId: merchant.merchantId, grant: request.body.merchant_funded_credit, audit: auditContextOf(request), storeResponse }),
    );
  },
);
