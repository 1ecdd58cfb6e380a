import * as z from '#shared/schemas/zod.ts';
import { apiHandler, ok, requireUser } from '#shared/http/handler.ts';
import { pathId } from '#shared/schemas/params.ts';
import { CARD_NOT_FOUND, deleteCreditCard, serializeCreditCard } from '#shared/domain/cards/credit-cards.ts';

const params = z.object({ id: pathId });

/** DELETE /v14/credit_cards/{id}: a malformed id is just another card the user does not have, with the contract's 404 body. */
export const handler = apiHandler('credit-cards-delete', { notFound: CARD_NOT_FOUND, summary: 'Delete a credit card', params }, async (request) => {
  const user = requireUser(request);
  return ok(serializeCreditCard(await deleteCreditCard(user.userId, request.params.id)));
});
