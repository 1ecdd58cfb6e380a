import { apiHandler, ok, requireUser } from '#shared/http/handler.ts';
import { listCreditCards, serializeCreditCard } from '#shared/domain/cards/credit-cards.ts';

export const handler = apiHandler('credit-cards-list', { summary: "List the user's credit cards" }, async (request) => {
  const user = requireUser(request);
  return ok((await listCreditCards(user.userId)).map(serializeCreditCard));
});
