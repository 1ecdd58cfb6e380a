import { describe, expect, it } from 'vitest';
import { loadedOnFirstUse } from '#shared/env.ts';

/** The SDK packages other than DynamoDB's load on first use (shared/env.ts): once per process, a failure not kept. */
describe('loadedOnFirstUse', () => {
  it('loads nothing until asked, then once for every caller, concurrent ones included', async () => {
    let loads = 0;
    const module = { name: 'package' };
    const load = loadedOnFirstUse(async () => {
      loads += 1;
      await new Promise((resolve) => setTimeout(resolve, 10));
      return module;
    });
    expect(loads).toBe(0);
    const answers = await Promise.all([load(), load(), load()]);
    expect(answers).toEqual([module, module, module]);
    expect(answers[0]).toBe(module);
    expect(await load()).toBe(module);
    expect(loads).toBe(1);
  });

  it('gives a failed load to the callers waiting on it, and the next use loads again', async () => {
    let loads = 0;
    const load = loadedOnFirstUse(async () => {
      loads += 1;
      if (loads === 1) throw new Error('package not found');
      return 'loaded';
    });
    const [first, second] = await Promise.allSettled([load(), load()]);
    expect(first).toMatchObject({ status: 'rejected', reason: { message: 'package not found' } });
    expect(second).toMatchObject({ status: 'rejected', reason: { message: 'package not found' } });
    expect(loads).toBe(1);
    expect(await load()).toBe('loaded');
    expect(await load()).toBe('loaded');
    expect(loads).toBe(2);
  });
});
