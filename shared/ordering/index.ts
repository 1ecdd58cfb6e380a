import type { OrderingProvider } from './provider.ts';
import { SANDBOX_PROVIDER_NAMES, SandboxOrderingProvider, type SandboxProviderName } from './sandbox.ts';

export type { OrderingProvider, ProviderAnswer, ProviderOrder } from './provider.ts';

/** Names a location's menu may give as its `ordering_provider`; only the sandbox behaviours exist today. */
export const ORDERING_PROVIDER_NAMES = SANDBOX_PROVIDER_NAMES;
export type OrderingProviderName = SandboxProviderName;
export const DEFAULT_ORDERING_PROVIDER: OrderingProviderName = 'sandbox-accepts';

/**
 * The provider a location forwards its orders to. A real adapter (a POS's online-ordering API, a
 * delivery platform) would be one more name here with its own credentials; nothing that calls this
 * would change.
 */
export function orderingProvider(name: OrderingProviderName): OrderingProvider {
  return new SandboxOrderingProvider(name);
}
