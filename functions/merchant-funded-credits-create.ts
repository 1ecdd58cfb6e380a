import { apiHandler, requireMerchant } from '#shared/http/handler.ts';
import { idempotent } from '#shared/http/idempotency.ts';
import { grantMerchantFundedCredit } from '#shared/domain/pos/credit-grants.ts';
import { merchantFundedCreditGrantBody } from '#shared/schemas/pos-money.ts';

/** POST /v15/merchant_funded_credits: give a user (by email) credit usable at the merchant, expiring after duration_in_seconds. 204. */
export const handler = apiHandler(
  'merchant-funded-credits-create',
  { summary: 'Give a user merchant-funded credit by email', body: merchantFundedCreditGrantBody, bodyObject: 'merchant_funded_credit' },
  async (request) => {
    const merchant = requireMerchant(request);
    return idempotent(request, async (idempotency) => {
      await grantMerchantFundedCredit({
        merchantId: merchant.merchantId,
        grant: request.body.merchant_funded_credit,
        storeResponse: () => idempotency.storeResponse({ status: 204 }),
      });
      return { status: 204 };
    });
  },
);
