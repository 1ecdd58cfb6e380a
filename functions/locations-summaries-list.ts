import * as z from '#shared/schemas/zod.ts';
import { apiHandler } from '#shared/http/handler.ts';
import { pageAnswer } from '#shared/http/paging.ts';
import { optionalQuery } from '#shared/schemas/params.ts';
import { isoSeconds } from '#shared/time.ts';
import { locationSummaries, serializeSummary } from '#shared/domain/app-surface/location-summaries.ts';

const query = z
  .object({
    since: optionalQuery(
      z.pipe(
        // A `+00:00` offset sent unescaped arrives as a space.
        z
          .pipe(
            z.string().check(z.maxLength(40)),
            z.transform((value) => value.replace(' ', '+')),
          )
          .check(
            z.refine(
              (value) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/.test(value) && !Number.isNaN(Date.parse(value)),
              'must be an ISO 8601 date and time',
            ),
          ),
        z.transform((value) => isoSeconds(new Date(value))),
      ),
    ),
    last_id: optionalQuery(z.pipe(z.string().check(z.regex(/^\d{1,15}$/, 'must be a location id')), z.transform(Number))),
  })
  .check(
    z.superRefine((value, context) => {
      if (value.last_id !== undefined && value.since === undefined) context.addIssue({ code: 'custom', path: ['since'], message: 'is required with last_id' });
    }),
  );

/**
 * GET /v14/locations (A28) — no credential: every location as a summary, in the order they changed.
 * Each page's Link resumes after its last row (`since` = its updated_at, `last_id` = its id); apps keep
 * the last Link and come back for what changed. Nothing after the position: 204.
 */
export const handler = apiHandler(
  'locations-summaries-list',
  { summary: 'List every location as a summary, by change', paged: true, query },
  async (request) => {
    const { since, last_id: lastId } = request.query;
    const locations = await locationSummaries(since !== undefined ? { since, lastId: lastId ?? 0 } : undefined);
    return pageAnswer(
      request.baseUrl,
      {
        items: locations,
        after: (last) => ({ path: '/v14/locations', query: new URLSearchParams({ since: last.updated_at, last_id: String(last.location_id) }) }),
      },
      (shown) => shown.map(serializeSummary),
    );
  },
);
