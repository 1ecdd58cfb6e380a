import { apiHandler, noContent } from '#shared/http/handler.ts';
import { nextPageLink } from '#shared/http/paging.ts';
import { audienceOf } from '#shared/domain/events/catalogue.ts';
import { eventListJson, listEvents } from '#shared/domain/events/events.ts';
import { eventList } from '#shared/schemas/event-shapes.ts';
import { eventsQuery } from '#shared/schemas/events.ts';

/** GET /v15/events: the caller's events of the last 30 days, oldest first, paged by Link; 204 past the last. */
export const handler = apiHandler(
  'events-list',
  {
    query: eventsQuery,
    responses: process.env.OMIT_RESPONSE_SCHEMAS ? undefined : { 200: eventList, 204: null },
    summary: "List the caller's events",
    description: '`after` (an event id) resumes after that event; `types` (comma-separated) keeps only those types. 50 per page, the next page in `Link`.',
  },
  async (request) => {
    const page = await listEvents(audienceOf(request.credentials), { after: request.query.after, types: request.query.types });
    if (page.bodies.length === 0 && !page.next) return noContent();
    const query = new URLSearchParams();
    if (request.query.types) query.set('types', request.query.types.join(','));
    if (page.next) query.set('after', page.next);
    // The stored bodies are the answer's items as they are (no parse and re-serialise per event).
    const link = page.next ? nextPageLink(request.baseUrl, '/v15/events', query) : {};
    return { status: 200, rawBody: eventListJson(page.bodies), headers: { 'Content-Type': 'application/json; charset=utf-8', ...link } };
  },
);
