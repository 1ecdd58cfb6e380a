import * as z from '#shared/schemas/zod.ts';
import { apiHandler, ok, requireUser } from '#shared/http/handler.ts';
import { CARD_NOT_FOUND, promoteCreditCard, serializeCreditCard } from '#shared/domain/cards/credit-cards.ts';
import { pathId } from '#shared/schemas/params.ts';

/**
 * PUT /v14/credit_cards/{id}: promotes the card, the one orders charge from now on (iOS and Android send no
 * body; an old C# SDK sent a stray JSON string: any body is ignored). Not the user's active card: 404 credit_card/id.
 */
const params = z.object({ id: pathId });

export const handler = apiHandler(
  'credit-cards-promote',
  { params, notFound: CARD_NOT_FOUND, summary: 'Promote a credit card (make it the one charged)' },
  async (request) => ok(serializeCreditCard(await promoteCreditCard(requireUser(request).userId, request.params.id))),
);
