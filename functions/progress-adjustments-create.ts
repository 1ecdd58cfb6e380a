import { apiHandler, requireMerchant } from '#shared/http/handler.ts';
import { idempotentNoContent } from '#shared/http/idempotency.ts';
import { adjustProgress } from '#shared/domain/loyalty/progress-adjustments.ts';
import { progressAdjustmentBody } from '#shared/schemas/pos-money.ts';

/** POST /v15/progress_adjustments: a merchant adjusts a customer's progress on one of its campaigns, by the rules orders follow. 204. */
export const handler = apiHandler(
  'progress-adjustments-create',
  { summary: "Adjust a customer's loyalty progress", body: progressAdjustmentBody, bodyObject: 'progress_adjustment' },
  async (request) => {
    const merchant = requireMerchant(request);
    return idempotentNoContent(request, (storeResponse) =>
      adjustProgress({ merchantId: merchant.merchantId, adjustment: request.body.progress_adjustment, storeResponse }),
    );
  },
);
