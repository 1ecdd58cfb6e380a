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
