/**
 * Location categories (GET /v14/categories). A fixed vocabulary shipped with the code rather than rows in
 * the table: every environment has the same ids (locations created anywhere name the same categories),
 * the list costs no read, and a location can only be created with ids from it (locations.ts checks).
 * Ids are never reused or renumbered: apps store them with their location summaries (A28).
 */
export interface Category {
  id: number;
  name: string;
}

export const CATEGORIES: readonly Category[] = [
  { id: 1, name: 'Restaurants' },
  { id: 2, name: 'Bars & Nightlife' },
  { id: 3, name: 'Bakeries' },
  { id: 4, name: 'Coffee & Tea' },
  { id: 5, name: 'Breakfast & Brunch' },
  { id: 6, name: 'Desserts' },
  { id: 7, name: 'Pizza' },
  { id: 8, name: 'Sandwiches' },
  { id: 9, name: 'Salads' },
  { id: 10, name: 'Burgers' },
  { id: 11, name: 'Mexican' },
  { id: 12, name: 'Asian' },
  { id: 13, name: 'Juice & Smoothies' },
  { id: 14, name: 'Grocery' },
  { id: 15, name: 'Retail' },
  { id: 16, name: 'Services' },
];

const BY_ID = new Map(CATEGORIES.map((category) => [category.id, category.name]));

export function isKnownCategory(id: number): boolean {
  return BY_ID.has(id);
}

/** A category's name ('' for an id no longer listed, which locations.ts never lets a location hold). */
export function categoryName(id: number): string {
  return BY_ID.get(id) ?? '';
}
