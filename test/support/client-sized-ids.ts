/**
 * LevelUp's C# SDK reads every id as a 32-bit int (issue 34.11: an order `id` of 24932996666442 threw
 * OverflowException), so no answer may carry an integer `id` or `*_id` at or above 2^31. The suite's HTTP
 * client (api.ts) runs this on every JSON answer, so every test enforces it.
 */
export const CLIENT_ID_LIMIT = 2 ** 31;

/**
 * Ids the contract itself types as 64-bit: a menu option's `id` is the merchant's own POS id ("64-bit integer,
 * can exceed 32-bit range"), answered exactly as the merchant gave it; in the management API's menu draft (the
 * create-menu file's shape: an item's group's `options` list, unwrapped) as well.
 */
const MERCHANT_SUPPLIED_ID_PARENTS = new Set(['option', 'options']);

/** Each `path: value` of an integer `id` / `*_id` (also inside `*_ids` arrays) at or above 2^31. */
export function oversizedIds(value: unknown, path = '$', parent = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((element, index) => oversizedIds(element, `${path}[${index}]`, parent));
  if (value === null || typeof value !== 'object') return [];
  const found: string[] = [];
  for (const [name, field] of Object.entries(value as Record<string, unknown>)) {
    const fieldPath = `${path}.${name}`;
    const isId = name === 'id' || name.endsWith('_id');
    const isIdList = name.endsWith('_ids') && Array.isArray(field);
    const exempt = MERCHANT_SUPPLIED_ID_PARENTS.has(parent) || name === 'option_id' || name.endsWith('option_ids');
    if (!exempt && isId && Number.isInteger(field) && (field as number) >= CLIENT_ID_LIMIT) found.push(`${fieldPath}: ${field as number}`);
    if (!exempt && isIdList) {
      (field as unknown[]).forEach((element, index) => {
        if (Number.isInteger(element) && (element as number) >= CLIENT_ID_LIMIT) found.push(`${fieldPath}[${index}]: ${element as number}`);
      });
    }
    found.push(...oversizedIds(field, fieldPath, name));
  }
  return found;
}

/** Throws (failing the test) when an answer carries an id a 32-bit client cannot read. */
export function assertClientSizedIds(method: string, url: string, body: unknown): void {
  const found = oversizedIds(body);
  if (found.length > 0) throw new Error(`${method} ${url} answered ids at or above 2^31 (the C# SDK reads ids as 32-bit ints): ${found.join(', ')}`);
}
