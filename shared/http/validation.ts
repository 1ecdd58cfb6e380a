import type { z } from 'zod';
import { ApiError, errorDetail, type ErrorDetail } from '#shared/errors.ts';

function humanize(property: string): string {
  const words = property.replace(/[_\[\]]+/g, ' ').trim();
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
    const message = missing ? `${humanize(property === 'base' ? object : property)} can't be blank` : `${humanize(property === 'base' ? object : property)} ${issue.message.charAt(0).toLowerCase()}${issue.message.slice(1)}`;
    return errorDetail(object, property, message, missing ? 'missing' : 'invalid');
  });
}

/** Parses with a schema; a failure becomes an error array (422 unless another status is given). */
export function parseOrThrow<T extends z.ZodType>(schema: T, value: unknown, rootObject: string, status = 422): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new ApiError(status, zodIssuesToErrors(result.error.issues, rootObject));
}
