import { apiHandler, ok, requireUser } from '#shared/http/handler.ts';
import { addCreditCard, cardSourceOf, serializeCreditCard } from '#shared/domain/cards/credit-cards.ts';
import { createCreditCardBody } from '#shared/schemas/credit-cards.ts';
import { CARD_VAULT_ATTEMPTS, consumeOrRefuse } from '#shared/domain/rate-limits.ts';

/** POST /v15/credit_cards: a gateway nonce (the contract) or client-side encrypted card fields (the SDKs); docs/payments.md. */
export const handler = apiHandler(
  'credit-cards-create',
  { summary: 'Create a credit card', body: createCreditCardBody, bodyObject: 'credit_card' },
  async (request) => {
    const user = requireUser(request);
    // Every attempt counts, success or not: a stolen token must not become a card-testing rig (docs/security.md).
    await consumeOrRefuse(CARD_VAULT_ATTEMPTS, String(user.userId), {
      object: 'credit_card',
      message: 'Too many cards added from this account; retry after the Retry-After interval.',
    });
    const { source, nonceField } = cardSourceOf(request.body.credit_card);
    return ok(serializeCreditCard(await addCreditCard(user.userId, source, nonceField)));
  },
);
