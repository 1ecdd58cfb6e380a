import type * as z from 'zod';

/** A schema shown under its own name in the OpenAPI document (`#/components/schemas/<id>`). */
export interface NamedSchema {
  id: string;
  schema: z.ZodType;
  description?: string;
}

export const namedSchemas: NamedSchema[] = [];

/** Registers a reusable resource schema under a component name; returns the schema unchanged. */
export function named<T extends z.ZodType>(id: string, schema: T, description?: string): T {
  if (namedSchemas.some((entry) => entry.id === id)) throw new Error(`Two schemas are named ${id}`);
  namedSchemas.push({ id, schema, description });
  return schema;
}

/**
 * Builds a module-level schema, now, exactly as writing the expression would. Every module-level schema
 * is written `/* @__PURE__ *\/ schema(() => ...)` so that a bundler may drop the ones a function never
 * uses: a call marked pure whose argument is only a function can go when its result is unused, which
 * `z.object(...).describe(...)` or `named(...)` written directly cannot (a method call might have side
 * effects). That keeps the response schemas (documentation only, see `responses` in
 * shared/http/handler.ts) and other handlers' request schemas out of a function's cold start.
 */
export function schema<T>(build: () => T): T {
  return build();
}
