import { paymentGateway } from '#shared/payments/index.ts';
import type { ChargeRequest, ChargeResult, RefundRequest } from '#shared/payments/gateway.ts';

export interface GatewayCalls {
  /** Every charge the gateway approved (in full or in part), with its request. */
  charges: (ChargeRequest & { chargeId: string })[];
  /** Every refund or void asked of it. */
  refunds: RefundRequest[];
}

/**
 * Counts what the sandbox gateway is asked to do in this process (the local gateway runs the handlers
 * here): it stays the real sandbox, observed. `since()` marks a moment; calling what it returns gives the
 * calls made after it.
 */
export function observeGateway(): { since(): () => GatewayCalls } {
  const calls: GatewayCalls = { charges: [], refunds: [] };
  const gateway = paymentGateway();
  const charge = gateway.charge.bind(gateway);
  const refund = gateway.refund.bind(gateway);
  gateway.charge = async (request): Promise<ChargeResult> => {
    const result = await charge(request);
    if (result.ok) calls.charges.push({ ...request, chargeId: result.chargeId });
    return result;
  };
  gateway.refund = async (request) => {
    calls.refunds.push(request);
    return refund(request);
  };
  return {
    since() {
      const charges = calls.charges.length;
      const refunds = calls.refunds.length;
      return () => ({ charges: calls.charges.slice(charges), refunds: calls.refunds.slice(refunds) });
    },
  };
}
