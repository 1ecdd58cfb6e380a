import { paymentGateway } from '#shared/payments/index.ts';
import type { ChargeRequest, RefundRequest } from '#shared/payments/gateway.ts';

/** What the sandbox gateway was asked to do (the gateway is not a fake: it is the real sandbox, observed). */
export interface GatewayCalls {
  charges: ChargeRequest[];
  /** Ids of the charges the sandbox approved. */
  chargeIds: string[];
  refunds: RefundRequest[];
}

/** Records every charge and refund the handlers of this process ask the sandbox gateway for. */
export function observeGateway(): GatewayCalls {
  const calls: GatewayCalls = { charges: [], chargeIds: [], refunds: [] };
  const gateway = paymentGateway();
  const charge = gateway.charge.bind(gateway);
  const refund = gateway.refund.bind(gateway);
  gateway.charge = async (request) => {
    const result = await charge(request);
    calls.charges.push(request);
    if (result.ok) calls.chargeIds.push(result.chargeId);
    return result;
  };
  gateway.refund = async (request) => {
    calls.refunds.push(request);
    return refund(request);
  };
  return calls;
}

/** Charges given back as voids (a settlement that did not commit returns its charge), by charge id. */
export function voidedCharges(calls: GatewayCalls): Set<string> {
  return new Set(calls.refunds.filter((refund) => refund.idempotencyKey.endsWith(':void')).map((refund) => refund.chargeId));
}

/** The charges the gateway still holds: every approved charge less the voided ones. */
export function keptCharges(calls: GatewayCalls): string[] {
  const voided = voidedCharges(calls);
  return [...new Set(calls.chargeIds.filter((chargeId) => !voided.has(chargeId)))].sort();
}
