/**
 * Memory per function from measurement (docs/cost.md "Memory per function"): the picks in shared/routes.ts
 * are the ones `npm run bench:memory` computed from its last measurement (bench/results/memory.json), the
 * rule picks more memory for CPU-bound handlers than for ones that mostly wait, and the stack sets each
 * function's MemorySize from its route (test/infra/stack.test.ts checks every function).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MEMORY_MB, LAMBDA_MEMORY_CHOICES, routeKey, routes } from '#shared/routes.ts';
import { modelMemory, type MemoryRow } from '../../bench/memory/memory.ts';

const measured = JSON.parse(readFileSync(new URL('../../bench/results/memory.json', import.meta.url), 'utf8')) as {
  date: string;
  machine: string;
  rows: MemoryRow[];
};

describe('memory per function', () => {
  it('every measured route carries the pick of the last measurement; the others the default', () => {
    // A route several scenarios measured takes the largest of their picks (the bound must hold for each).
    const picks = new Map<string, number>();
    for (const row of measured.rows) picks.set(row.route, Math.max(picks.get(row.route) ?? 0, row.pick));
    expect(picks.size).toBeGreaterThan(5);
    for (const route of routes) {
      const key = `${route.method} ${route.path}`;
      expect(route.memory ?? DEFAULT_MEMORY_MB, key).toBe(picks.get(key) ?? DEFAULT_MEMORY_MB);
    }
    expect(new Set(routes.map(routeKey)).size).toBe(routes.length);
  });

  it('the picks follow from the measured CPU and wait by the documented rule', () => {
    for (const row of measured.rows) expect(modelMemory(row.cpuMs, row.waitMs).pick, row.route).toBe(row.pick);
  });

  it('a CPU-bound handler gets more memory than one that mostly waits on DynamoDB; every pick is a Lambda setting we model', () => {
    const cpuBound = modelMemory(30, 5);
    const waiting = modelMemory(1, 30);
    expect(cpuBound.pick).toBeGreaterThan(waiting.pick);
    expect(LAMBDA_MEMORY_CHOICES).toContain(cpuBound.pick);
    // The model: CPU time stretches below one vCPU (1,769 MB), waiting does not; cost grows with memory x time.
    const at = (memory: number) => cpuBound.models.find((model) => model.memoryMb === memory)!;
    expect(at(256).durationMs).toBeCloseTo(30 * (1769 / 256) + 5, 1);
    expect(at(1769).durationMs).toBeCloseTo(35, 1);
  });
});
