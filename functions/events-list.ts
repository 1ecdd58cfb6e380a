import { apiHandler } from '#shared/http/handler.ts';
import { pageAnswer } from '#shared/http/paging.ts';
import { audienceOf } from '#shared/domain/events/catalogue.ts';
import { eventListJson, listEvents } from '#shared/domain/events/events.ts';
import { eventsQuery } from '#shared/schemas/events.ts';

/** GET /v15/events: the caller's events of the last 30 days, oldest first, paged by Link (every page has one); 204 past the last. */
export const handler = apiHandler(
  'events-list',
  {
    query: eventsQuery,

    summary: "List the caller's events",
    paged: true,
    description:
      '`after` (an event id) resumes after that event; `types` (comma-separated) keeps only those types. 50 per page; every page links the next in `Link` (a stored Link polls for new events: 200 with them, 204 while there are none).',
  },
  async (request) => {
    const page = await listEvents(audienceOf(request.credentials), { after: request.query.after, types: request.query.types });
    const resumeAfter = (after: string) => {
      const query = new URLSearchParams();
      if (request.query.types) query.set('types', request.query.types.join(','));
      query.set('after', after);
      return { path: '/v15/events', query };
    };
    return pageAnswer(
      request.baseUrl,
      // Past the events read when the read stopped short (a filter skipping other types), else after the last.
      { items: page.events, after: (last) => resumeAfter(page.next ?? last.event_id), resume: page.next === undefined ? undefined : resumeAfter(page.next) },
      // The stored bodies are the answer's items as they are (no parse and re-serialise per event).
      (events) => ({ json: eventListJson(events.map((event) => event.body_json)) }),
    );
  },
);
