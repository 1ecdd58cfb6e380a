import * as z from '#shared/schemas/zod.ts';

/** A schema shown under its own name in the OpenAPI document (`#/components/schemas/<id>`). */
export interface NamedSchema {
  id: string;
  schema: z.ZodMiniType;
  description?: string;
}

/** Named schemas in registration order, which is declaration order (the OpenAPI document imports every schema module). */
const namedSchemas: NamedSchema[] = [];

/** Registers a reusable resource schema under a component name; returns the schema unchanged. */
export function named<T extends z.ZodMiniType>(id: string, schema: T, description?: string): T {
  if (namedSchemas.some((entry) => entry.id === id)) throw new Error(`Two schemas are named ${id}`);
  namedSchemas.push({ id, schema, description });
  return schema;
}

/** Every named schema, in the order the OpenAPI document lists them. */
export function namedSchemaList(): readonly NamedSchema[] {
  return namedSchemas;
}

/**
 * A resource body as the API answers it, its fields under one root key (`{ "order": { ... } }`), registered
 * under `id`. Shapes that are no object under their key (a list, a union) are written with `named`.
 */
export function resource<K extends string, S extends z.core.$ZodLooseShape>(id: string, key: K, shape: S, description?: string) {
  return named(id, z.object({ [key]: z.object(shape) } as Record<K, z.ZodMiniObject<z.core.util.Writeable<S>>>), description);
}

/**
 * A list as the API answers it, each item's fields under one root key (`[{ "location": { ... } }, ...]`), the item's
 * fields registered under `id` (the wrapper stays unnamed, unlike `resource`'s). Items that are no object under their
 * key (a union, an extended schema) are written with `named`.
 */
export function namedItemList<K extends string, S extends z.core.$ZodLooseShape>(id: string, key: K, shape: S, description?: string) {
  return z.array(z.object({ [key]: named(id, z.object(shape), description) } as Record<K, z.ZodMiniObject<z.core.util.Writeable<S>>>));
}
