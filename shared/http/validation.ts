import type * as z from '#shared/schemas/zod.ts';
import { ApiError, errorDetail, type ErrorDetail } from '#shared/errors.ts';

function humanize(property: string): string {
  const words = property.replace(/[_[\]]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * Maps zod issues to the contract's error array. The first path segment of a wrapped body
 * (`{"user": {...}}`) is the error's object, the rest its property: `user.email` -> user / email.
 */
export function zodIssuesToErrors(issues: readonly z.core.$ZodIssue[], rootObject: string): ErrorDetail[] {
  return issues.map((issue) => {
    const path = issue.path.map(String);
    const [first, ...rest] = path;
    const object = first !== undefined && rest.length > 0 ? first : rootObject;
    const propertyPath = first !== undefined && rest.length > 0 ? rest : path;
    const property = propertyPath.length > 0 ? propertyPath.join('.') : 'base';
    const missing = issue.code === 'invalid_type' && /received undefined/.test(issue.message);
    const message = missing
      ? `${humanize(property === 'base' ? object : property)} can't be blank`
      : `${humanize(property === 'base' ? object : property)} ${issue.message.charAt(0).toLowerCase()}${issue.message.slice(1)}`;
    return errorDetail(object, property, message, missing ? 'missing' : 'invalid');
  });
}

/** Parses with a schema; a failure becomes an error array (422 unless another status is given). */
export function parseOrThrow<T extends z.ZodMiniType>(schema: T, value: unknown, rootObject: string, status = 422): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new ApiError(status, zodIssuesToErrors(result.error.issues, rootObject));
}

/**
 * Deepest nesting of a JSON body (objects and arrays) accepted. The deepest valid body, an order whose items
 * nest MAX_ITEM_NESTING levels through `children`, is 33 deep; zod's recursive schemas recurse once or more
 * per level, and a few hundred levels overflow the stack of a cold process (its first parse runs deeper
 * frames than a warm one's), which would be a 500 on demand.
 */
export const MAX_JSON_DEPTH = 40;
/**
 * Most values (objects, arrays and primitives) in a JSON body: a real body of MAX_BODY_BYTES holds about
 * 5,000 (an order item of 5 values is some 60 bytes); only padding like `[0,0,0,...]` reaches this.
 */
export const MAX_JSON_NODES = 10_000;

/**
 * The request body's bounds, checked before any schema (or anything else that recurses) sees it: a walk with
 * its own stack, so no body can overflow it, stopping at the first bound passed. 422 `request` / `body`.
 */
export function checkJsonBounds(body: unknown): void {
  const pending: [unknown, number][] = [[body, 1]];
  let nodes = 0;
  while (pending.length > 0) {
    const [value, depth] = pending.pop()!;
    if (++nodes > MAX_JSON_NODES) {
      throw new ApiError(422, [errorDetail('request', 'body', `The request body holds more than ${MAX_JSON_NODES} values.`, 'too_many_values')]);
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth > MAX_JSON_DEPTH) {
      throw new ApiError(422, [
        errorDetail('request', 'body', `The request body nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep.`, 'too_deep'),
      ]);
    }
    for (const child of Array.isArray(value) ? value : Object.values(value)) pending.push([child, depth + 1]);
  }
}
