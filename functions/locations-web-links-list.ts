import * as z from '#shared/schemas/zod.ts';
import { apiHandler, ok } from '#shared/http/handler.ts';
import { notFound } from '#shared/errors.ts';
import { locationWebLinks } from '#shared/domain/app-surface/web-links.ts';
import { pathId } from '#shared/schemas/params.ts';

const params = z.object({ location_id: pathId });

/**
 * GET /v15/locations/:location_id/web_links (A27) — no credential: the links a location screen shows
 * (Facebook, Twitter, Yelp, OpenTable, menu, newsletter), each an absolute URL the location has. An
 * unknown or hidden location is 404 with an empty body; a location with none is 200 `[]`.
 */
export const handler = apiHandler('locations-web-links-list', { summary: "List a location's web links", params }, async (request) => {
  const links = await locationWebLinks(request.params.location_id);
  if (!links) throw notFound();
  return ok(links);
});
