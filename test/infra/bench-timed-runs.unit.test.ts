/**
 * The bench's timed HTTP runs (bench/harness/measure.ts httpLoad): a run of requests slower than its duration still
 * gives its minimum of samples (the CSV exports at c=16 gave none, and their twin "failed: 0 socket errors"), and a run
 * ends gracefully: every request it sent is answered and counted, none is left for the server to finish during the
 * next measurement.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { httpLoad } from '../../bench/harness/measure.ts';

let server: Server | undefined;

/** A server that answers every request after `delayMs`, counting the requests it received and those it answered. */
async function slowServer(delayMs: number) {
  const counts = { received: 0, answered: 0, abandoned: 0 };
  server = createServer((request, response) => {
    counts.received += 1;
    request.resume();
    response.on('close', () => {
      if (!response.writableFinished) counts.abandoned += 1;
    });
    setTimeout(() => {
      if (response.destroyed) return;
      counts.answered += 1;
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    }, delayMs);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, counts };
}

afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

describe('bench timed runs', () => {
  it('runs past its duration until the minimum of samples came back, and answers every request it sent', async () => {
    const { baseUrl, counts } = await slowServer(150);
    const load = await httpLoad({
      baseUrl,
      connections: 4,
      limit: { durationMs: 20, minimumAmount: 10 },
      next: () => ({ method: 'GET', path: '/slow' }),
      expectedStatuses: [200],
    });
    expect(load.errors).toBe(0);
    expect(load.statuses['200']).toBeGreaterThanOrEqual(10);
    // Each connection's request in flight at the end is answered and counted: nothing was sent and dropped.
    expect(load.summary.count).toBe(counts.received);
    expect(counts.answered).toBe(counts.received);
    expect(counts.abandoned).toBe(0);
  });

  it('without a minimum, ends after its duration with the requests in flight answered, not dropped', async () => {
    const { baseUrl, counts } = await slowServer(100);
    const load = await httpLoad({
      baseUrl,
      connections: 3,
      limit: { durationMs: 10 },
      next: () => ({ method: 'GET', path: '/slow' }),
      expectedStatuses: [200],
    });
    expect(load.statuses['200']).toBe(3);
    expect(counts).toEqual({ received: 3, answered: 3, abandoned: 0 });
  });
});
