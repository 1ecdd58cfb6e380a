import { apiHandler, ok, requireUser } from '#shared/http/handler.ts';
import { createTicket } from '#shared/domain/app-surface/tickets.ts';
import { ticketRequest } from '#shared/schemas/app-surface.ts';

/**
 * POST /v14/tickets — a support message from the user: stored, listed by `npm run admin -- list-tickets`
 * and mailed to the operators' support address. A blank body is 422 `ticket / body`; more than 10 tickets
 * an hour from one user is 429.
 */
export const handler = apiHandler('tickets-create', { body: ticketRequest, summary: 'Send a support ticket' }, async (request) => {
  const user = requireUser(request);
  const ticket = await createTicket(user, request.body.ticket.body);
  return ok({ ticket: { id: ticket.ticket_id, body: ticket.body, user_id: ticket.user_id, created_at: ticket.created_at, updated_at: ticket.updated_at } });
});
