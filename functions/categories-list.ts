import { apiHandler, ok } from '#shared/http/handler.ts';
import { CATEGORIES } from '#shared/domain/app-surface/categories.ts';

/** GET /v14/categories — no credential: every location category; locations' `categories` hold these ids. */
export const handler = apiHandler('categories-list', { summary: 'List location categories' }, async () =>
  // A fixed list, the same for everyone: clients and shared caches may keep it for an hour.
  ok(
    CATEGORIES.map((category) => ({ category: { id: category.id, name: category.name } })),
    { 'Cache-Control': 'public, max-age=3600' },
  ),
);
