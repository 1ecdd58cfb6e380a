import { globalRegistry } from 'zod';
import type * as z from 'zod';

/** A schema shown under its own name in the OpenAPI document (`#/components/schemas/<id>`). */
export interface NamedSchema {
  id: string;
  schema: z.ZodType;
  description?: string;
}

/** Named schemas, with the declaration each was built under: kept in declaration order (see `namedSchemaList`). */
const named_: { entry: NamedSchema; order: number; seq: number }[] = [];
/** Every module-level schema declared so far, in declaration order, to build them all for the OpenAPI document. */
const declared: (() => unknown)[] = [];
/** The declaration whose builder is running (its index in `declared`), -1 outside any. */
let building = -1;
let sequence = 0;

/** Registers a reusable resource schema under a component name; returns the schema unchanged. */
export function named<T extends z.ZodType>(id: string, schema: T, description?: string): T {
  if (named_.some((item) => item.entry.id === id)) throw new Error(`Two schemas are named ${id}`);
  // Outside any builder, a name registered at module level comes after the declarations before it.
  const order = building >= 0 ? building : declared.length - 0.5;
  const item = { entry: { id, schema, description }, order, seq: sequence++ };
  let at = named_.length;
  while (at > 0 && named_[at - 1]!.order > order) at--;
  named_.splice(at, 0, item);
  return schema;
}

/**
 * Every named schema, in the order an eager build of every schema module would have registered them
 * (the order the OpenAPI document lists them in). Builds every declared schema first: a schema is built
 * at its first use (`schema`), and the document must see those no handler has used.
 */
export function namedSchemaList(): readonly NamedSchema[] {
  for (const force of declared) force();
  return named_.map((item) => item.entry);
}

type JsonSchemaProcessor = (context: { seen: Map<unknown, unknown> }, json: unknown, parameters: unknown) => void;

/**
 * zod's JSON Schema conversion keeps its state per schema object (`seen`), and the processor zod attached
 * to a schema looks its own state up by the instance it was built as; the converter reaches the schema as
 * the proxy. While that processor runs, the built instance's entry is the proxy's.
 */
function aliasJsonSchemaProcessor(internals: object, built: object, proxy: object): void {
  const holder = internals as { processJSONSchema?: JsonSchemaProcessor };
  const process = holder.processJSONSchema;
  if (!process) return;
  holder.processJSONSchema = (context, json, parameters) => {
    const own = context.seen.has(built);
    if (!own) context.seen.set(built, context.seen.get(proxy));
    try {
      process(context, json, parameters);
    } finally {
      if (!own) context.seen.delete(built);
    }
  };
}

/**
 * A module-level schema, built at its first use: the first parse, the first property read (by another
 * schema's builder, the OpenAPI generator, a test), whichever comes first. Every module-level schema is
 * written `/* @__PURE__ *\/ schema(() => ...)`, for two reasons:
 *
 * - A bundler may drop the ones a function never uses: a call marked pure whose argument is only a
 *   function can go when its result is unused, which `z.object(...).describe(...)` or `named(...)`
 *   written directly cannot (a method call might have side effects). That keeps the response schemas
 *   (documentation only, see `responses` in shared/http/handler.ts) and other handlers' request schemas
 *   out of a function's bundle.
 * - The ones a function keeps are not built at import but at the request's first validation, which the
 *   request pipeline runs while the token's GetItem is in flight (shared/http/handler.ts): on a cold start
 *   their construction (zod's per-schema work, ~14 ms of CPU for a POS order body) leaves the import and
 *   overlaps the first read's wait (bench/notes.md, "schemas built at first use").
 *
 * What is returned stands for the built value everywhere: a proxy that builds it on its first touch and
 * then forwards every operation to it, with itself as the receiver (zod's methods take `this`, so
 * `amount.nullish()` wraps the proxy and every schema made of it refers to the proxy, one identity for
 * the OpenAPI generator's references, `WeakMap`s and `===`). Metadata the builder registered on its result
 * (`.describe`, `.meta`, `named`) is registered on the proxy too. The parse, its checks and its answers
 * are the built schema's own.
 */
export function schema<T>(build: () => T): T {
  const index = declared.length;
  // The proxy's target: empty until the first touch, then the schema itself (or the built plain object's copy).
  const target = {};
  let state: 'pending' | 'building' | 'built' = 'pending';
  const force = (): void => {
    if (state === 'built') return;
    if (state === 'building') throw new Error('A schema was used by its own builder');
    state = 'building';
    const outer = building;
    const since = sequence;
    building = index;
    let built: object;
    try {
      built = build() as object;
    } catch (error) {
      state = 'pending';
      throw error;
    } finally {
      building = outer;
    }
    // The target becomes the built value: its prototype and own properties (a zod schema's are its internals
    // and members, shared with the built instance), so every later operation on the proxy is one on it.
    Object.setPrototypeOf(target, Object.getPrototypeOf(built));
    Object.defineProperties(target, Object.getOwnPropertyDescriptors(built));
    state = 'built';
    for (const trap of Object.keys(traps) as (keyof ProxyHandler<object>)[]) delete traps[trap];
    const internals = (built as Partial<z.core.$ZodType>)._zod;
    if (internals) {
      const metadata = globalRegistry.has(built as z.core.$ZodType) ? globalRegistry.get(built as z.core.$ZodType) : undefined;
      if (metadata) globalRegistry.add(proxy as z.core.$ZodType, metadata);
      for (const item of named_) if (item.seq >= since && item.entry.schema === built) item.entry.schema = proxy as z.ZodType;
      aliasJsonSchemaProcessor(internals, built, proxy);
    }
  };
  // Each trap builds the value on the first touch; once built, the traps are removed, and the proxy forwards
  // every operation to its target natively (a warm parse pays no trap call).
  const traps: ProxyHandler<object> = {
    get: (_target, key, receiver) => (force(), Reflect.get(target, key, receiver)),
    set: (_target, key, value, receiver) => (force(), Reflect.set(target, key, value, receiver)),
    has: (_target, key) => (force(), Reflect.has(target, key)),
    deleteProperty: (_target, key) => (force(), Reflect.deleteProperty(target, key)),
    ownKeys: () => (force(), Reflect.ownKeys(target)),
    getOwnPropertyDescriptor: (_target, key) => (force(), Reflect.getOwnPropertyDescriptor(target, key)),
    defineProperty: (_target, key, descriptor) => (force(), Reflect.defineProperty(target, key, descriptor)),
    getPrototypeOf: () => (force(), Reflect.getPrototypeOf(target)),
    setPrototypeOf: (_target, prototype) => (force(), Reflect.setPrototypeOf(target, prototype)),
    isExtensible: () => (force(), Reflect.isExtensible(target)),
    preventExtensions: () => (force(), Reflect.preventExtensions(target)),
  };
  const proxy: object = new Proxy(target, traps);
  declared.push(force);
  return proxy as T;
}
