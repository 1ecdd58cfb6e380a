import { apiHandler, ok, requireUser } from '#shared/http/handler.ts';
import { listCreditCards, serializeCreditCard } from '#shared/domain/cards/credit-cards.ts';

/** GET /v14/credit_cards (iOS, Android, docs): the v15 list at the path the mobile SDKs call: active cards, oldest first, with `debit`. */
export const handler = apiHandler('credit-cards-list-v14', { summary: "List the user's credit cards (v14 path)" }, async (request) =>
  ok((await listCreditCards(requireUser(request).userId)).map(serializeCreditCard)),
);
