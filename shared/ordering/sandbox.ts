/**
 * The sandbox ordering provider: four documented behaviours, chosen per location by its menu's
 * `ordering_provider` setting (docs/order-ahead.md, "Sandbox ordering provider"), the way test card
 * nonces choose a card's behaviour. Like the card sandbox it keeps no state: every answer is a function
 * of the order, when it was submitted and now, so a retried call gets the same answer.
 */
import { createHash } from 'node:crypto';
import { optionalEnv } from '#shared/env.ts';
import type { OrderingProvider, ProviderAnswer, ProviderOrder } from './provider.ts';

export const SANDBOX_PROVIDERS = {
  /** Accepts every order as soon as it is submitted. */
  accepts: 'sandbox-accepts',
  /** Rejects every order at once, with SANDBOX_REJECTION_REASON. */
  rejects: 'sandbox-rejects',
  /** Answers "accepted" only SANDBOX_SLOW_ANSWER_SECONDS after submission (pending before). */
  slow: 'sandbox-slow',
  /** Never answers: the order stays pending until the workflow's cut-off rejects it. */
  neverAnswers: 'sandbox-never-answers',
} as const;
export type SandboxProviderName = (typeof SANDBOX_PROVIDERS)[keyof typeof SANDBOX_PROVIDERS];
export const SANDBOX_PROVIDER_NAMES = Object.values(SANDBOX_PROVIDERS) as [SandboxProviderName, ...SandboxProviderName[]];

export const SANDBOX_REJECTION_REASON = 'The restaurant cannot take this order right now.';
/** Default delay of `sandbox-slow`; ORDERING_SANDBOX_SLOW_SECONDS changes it (demos, tests). */
export const SANDBOX_SLOW_ANSWER_SECONDS = 10;

function slowAnswerMs(): number {
  const configured = Number(optionalEnv('ORDERING_SANDBOX_SLOW_SECONDS'));
  return (Number.isFinite(configured) && configured >= 0 ? configured : SANDBOX_SLOW_ANSWER_SECONDS) * 1000;
}

/** A provider's order number: 7 digits derived from the order's uuid (the same order, the same number). */
export function sandboxOrderNumber(uuid: string): string {
  return String(1_000_000 + (Number.parseInt(createHash('sha256').update(uuid).digest('hex').slice(0, 8), 16) % 9_000_000));
}

export class SandboxOrderingProvider implements OrderingProvider {
  constructor(private readonly behaviour: SandboxProviderName) {}

  private answer(order: ProviderOrder, submittedAt: Date, now: Date): ProviderAnswer {
    const accepted: ProviderAnswer = { status: 'accepted', order_number: sandboxOrderNumber(order.uuid), ready_at: order.ready_at };
    switch (this.behaviour) {
      case SANDBOX_PROVIDERS.accepts:
        return accepted;
      case SANDBOX_PROVIDERS.rejects:
        return { status: 'rejected', reason: SANDBOX_REJECTION_REASON };
      case SANDBOX_PROVIDERS.slow:
        return now.getTime() - submittedAt.getTime() >= slowAnswerMs() ? accepted : { status: 'pending' };
      case SANDBOX_PROVIDERS.neverAnswers:
        return { status: 'pending' };
    }
  }

  async submit(order: ProviderOrder, submittedAt: Date): Promise<ProviderAnswer> {
    return this.answer(order, submittedAt, submittedAt);
  }

  async status(order: ProviderOrder, submittedAt: Date, now: Date): Promise<ProviderAnswer> {
    return this.answer(order, submittedAt, now);
  }

  async cancel(): Promise<void> {
    // Nothing is held: the sandbox keeps no orders.
  }
}
