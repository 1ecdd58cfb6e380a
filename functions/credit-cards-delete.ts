import * as z from 'zod';
import { apiHandler, ok, requireUser } from '#shared/http/handler.ts';
import { CARD_NOT_FOUND, deleteCreditCard, serializeCreditCard } from '#shared/domain/credit-cards.ts';
import { creditCardResponse } from '#shared/schemas/credit-cards.ts';
import { apiErrors } from '#shared/schemas/errors.ts';

// A malformed id is just another card the user does not have: the same 404 body, not an empty one.
const params = z.object({ id: z.string() });
const CARD_ID = /^[1-9]\d{0,14}$/;

export const handler = apiHandler('credit-cards-delete', { responses: { 200: creditCardResponse, 409: apiErrors }, summary: 'Delete a credit card', params }, async (request) => {
  const user = requireUser(request);
  if (!CARD_ID.test(request.params.id)) throw CARD_NOT_FOUND();
  return ok(serializeCreditCard(await deleteCreditCard(user.userId, Number(request.params.id))));
});
