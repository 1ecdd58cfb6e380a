import type { PaymentGateway } from '#shared/payments/gateway.ts';
import { SandboxGateway } from '#shared/payments/sandbox.ts';

export type { PaymentGateway } from '#shared/payments/gateway.ts';

let gateway: PaymentGateway | undefined;

/**
 * The configured payment gateway, one per process. Only the sandbox exists today; a real
 * gateway adapter (Braintree, Stripe, ...) would be chosen here from configuration, and
 * nothing that calls this would change.
 */
export function paymentGateway(): PaymentGateway {
  gateway ??= new SandboxGateway();
  return gateway;
}
