import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { named, namedSchemaList, schema } from '#shared/schemas/registry.ts';

describe('module-level schemas (shared/schemas/registry.ts)', () => {
  it('are built at their first use, once, and parse as the built schema does', () => {
    let builds = 0;
    const amount = schema(() => {
      builds++;
      return z.number().int().min(0);
    });
    const body = schema(() => z.object({ order: z.object({ amount, tip: amount.nullish().transform((value) => value ?? 0) }) }));
    expect(builds).toBe(0);
    expect(body.safeParse({ order: { amount: 5 } }, { jitless: true })).toEqual({ success: true, data: { order: { amount: 5, tip: 0 } } });
    expect(builds).toBe(1);
    const refused = body.safeParse({ order: { amount: -1, tip: 1.5 } });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((issue) => [issue.path.join('.'), issue.code])).toEqual([['order.amount', 'too_small'], ['order.tip', 'invalid_type']]);
    expect(body.parse({ order: { amount: 1, tip: 2 } })).toEqual({ order: { amount: 1, tip: 2 } });
    expect(builds).toBe(1);
  });

  it('keep one identity: what is made of a schema refers to it, and instanceof and metadata hold', () => {
    const text = schema(() => z.string().max(3).describe('Short text'));
    const wrapped = schema(() => text.optional());
    expect((wrapped as unknown as z.ZodOptional<z.ZodString>).unwrap()).toBe(text);
    expect(text).toBeInstanceOf(z.ZodString);
    expect(text.description).toBe('Short text');
    expect(z.toJSONSchema(z.object({ text: wrapped }))).toMatchObject({ properties: { text: { type: 'string', maxLength: 3, description: 'Short text' } } });
  });

  it('build plain objects of schemas (shapes) too, spread or read', () => {
    const fields = schema(() => ({ a: z.number(), b: z.string() }));
    const object = schema(() => z.object({ ...fields, c: fields.a.optional() }));
    expect(Object.keys(object.shape)).toEqual(['a', 'b', 'c']);
    expect(object.parse({ a: 1, b: 'x' })).toEqual({ a: 1, b: 'x' });
  });

  it('list named schemas as an eager build would, whatever was built first', () => {
    const first = schema(() => named('LazyTestFirst', z.object({ a: z.number() })));
    const second = schema(() => named('LazyTestSecond', z.object({ b: z.number() })));
    second.parse({ b: 1 });
    const ids = namedSchemaList().map((entry) => entry.id);
    expect(ids.indexOf('LazyTestFirst')).toBeLessThan(ids.indexOf('LazyTestSecond'));
    expect(namedSchemaList().find((entry) => entry.id === 'LazyTestFirst')?.schema).toBe(first);
  });

  it('answer a builder that throws at each use, as an eager build would have at import', () => {
    const broken = schema((): z.ZodString => {
      throw new Error('bad schema');
    });
    expect(() => broken.parse('x')).toThrow('bad schema');
    expect(() => broken.parse('x')).toThrow('bad schema');
  });
});
