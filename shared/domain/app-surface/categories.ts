/**
 * Location categories (GET /v14/categories): the vocabulary itself is shared/schemas/vocabularies.ts's (the location
 * schemas check ids against it); this module names them.
 */
import { CATEGORIES } from '#shared/schemas/vocabularies.ts';

export { CATEGORIES, type Category } from '#shared/schemas/vocabularies.ts';

const BY_ID = new Map(CATEGORIES.map((category) => [category.id, category.name]));

/** A category's name ('' for an id no longer listed, which locations.ts never lets a location hold). */
export function categoryName(id: number): string {
  return BY_ID.get(id) ?? '';
}
