/**
 * `npm run soak [-- --duration 60 --concurrency 8]`: a mixed workload against a local stack of its own
 * (in-memory DynamoDB Local, the table, local Step Functions, the local gateway without throttling, on
 * 127.0.0.1 only), for a bounded time with bounded concurrency. Data is seeded through the domain library
 * (the demo seed: merchant, locations, loyalty campaigns, order-ahead menu; plus soak customers with cards).
 *
 * Workload (weights in OPERATIONS): gift card loads (some repeating an earlier external_identifier, whose
 * answer must be the first one), in-store orders (proposed + completed with an Idempotency-Key, applying the
 * offered discount half the time), refunds, order ahead (start, poll once a second, complete), and reads
 * (locations, the user's orders, rewards, campaigns). A customer does one order at a time, as in a shop;
 * loads and refunds land on customers whatever they are doing.
 *
 * Prints requests, statuses, latency percentiles per operation, and the ledger audit. Exits 1 on any 5xx,
 * an audit mismatch, or a replay that answered differently. docs/reliability.md records a run.
 *
 * `npm run soak -- --conservation 200`: instead, the model-based conservation property (test/model/conservation.test.ts,
 * and test/model/conservation-order-ahead.test.ts with order-ahead orders among the operations, a tenth as many: each
 * is polled once a second) for that many random sequences (at most 2000), each file stopped after 20 s a sequence
 * (and shrinking included) at the latest; exits 1 if either fails.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { request as httpRequest, Agent } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, localClient, startDynamoDbLocal } from './local/dynamodb-local.ts';
import { ensureTable } from './local/table.ts';

const { values: options } = parseArgs({
  options: {
    duration: { type: 'string', default: '60' },
    concurrency: { type: 'string', default: '8' },
    customers: { type: 'string', default: '24' },
    conservation: { type: 'string' },
  },
});
if (options.conservation !== undefined) process.exit(runConservation(Number(options.conservation)));

/** The conservation properties for `runs` sequences, bounded in count and time (the tests' own timeouts follow). */
function runConservation(runs: number): number {
  if (!Number.isInteger(runs) || runs <= 0 || runs > 2000) throw new Error('--conservation must be a whole number from 1 to 2000');
  const properties = [
    { file: 'test/model/conservation.test.ts', runs },
    { file: 'test/model/conservation-order-ahead.test.ts', runs: Math.max(1, Math.ceil(runs / 10)) },
  ];
  let status = 0;
  for (const property of properties) {
    const result = spawnSync('npx', ['vitest', 'run', property.file, '-t', 'holds for'], {
      stdio: 'inherit',
      env: { ...process.env, CONSERVATION_RUNS: String(property.runs), CONSERVATION_TIME_LIMIT_S: String(property.runs * 20) },
      timeout: (property.runs * 20 + 180) * 1000,
    });
    if (result.status !== 0) status = 1;
  }
  return status;
}
const durationSeconds = Number(options.duration);
const concurrency = Number(options.concurrency);
const customerCount = Number(options.customers);
for (const [name, value] of Object.entries({ duration: durationSeconds, concurrency, customers: customerCount })) {
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
}

// Request logs would be one line per request: keep the error lines (5xx, handler failures) only.
const errorLines: string[] = [];
console.log = () => undefined;
const writeError = console.error.bind(console);
console.error = (...args: unknown[]) => {
  const line = args.map(String).join(' ');
  if (/"level":"error"/.test(line) || !line.startsWith('{')) errorLines.push(line);
};
const print = (line = '') => process.stdout.write(`${line}\n`);

// --- HTTP -------------------------------------------------------------------------------------------

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
  text: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: concurrency * 2 });
let baseUrl = '';

function call(method: string, pathOrUrl: string, init: { token?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
  const url = pathOrUrl.startsWith('http') ? pathOrUrl : `${baseUrl}${pathOrUrl}`;
  const payload = init.body === undefined ? undefined : JSON.stringify(init.body);
  const headers: Record<string, string> = { Accept: 'application/json', ...init.headers };
  if (init.token) headers.Authorization = `token ${init.token}`;
  if (payload !== undefined) {
    headers['Content-Type'] = 'application/json';
    headers['Content-Length'] = String(Buffer.byteLength(payload));
  }
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          body = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

// --- Measurements -----------------------------------------------------------------------------------

const latencies = new Map<string, number[]>();
const statuses = new Map<string, Map<number, number>>();
const failures: string[] = [];
let requests = 0;

/** One request, timed and counted under `label`; `expected` statuses are not errors. */
async function measured(label: string, expected: number[], method: string, path: string, init: Parameters<typeof call>[2] = {}): Promise<Answer> {
  const started = performance.now();
  const answer = await call(method, path, init);
  const elapsed = performance.now() - started;
  requests += 1;
  (latencies.get(label) ?? latencies.set(label, []).get(label)!).push(elapsed);
  const byStatus = statuses.get(label) ?? statuses.set(label, new Map()).get(label)!;
  byStatus.set(answer.status, (byStatus.get(answer.status) ?? 0) + 1);
  if (!expected.includes(answer.status) && failures.length < 20) failures.push(`${label} ${method} ${path} -> ${answer.status} ${answer.text.slice(0, 300)}`);
  return answer;
}

function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;
}

// --- The stack and its data -------------------------------------------------------------------------

interface Customer {
  id: number;
  token: string;
  qr: string;
  busy: boolean;
}

async function startStack() {
  const dynamo = await startDynamoDbLocal();
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  process.env.TABLE_NAME = `soak-${randomUUID().slice(0, 8)}`;
  process.env.AWS_REGION ??= 'local';
  process.env.PUBLIC_BASE_URL = baseUrl;
  const client = localClient(dynamo.endpoint);
  await ensureTable(client, process.env.TABLE_NAME);
  client.destroy();

  const { startLocalWorkflows, stopLocalWorkflows } = await import('./local/workflows.ts');
  await startLocalWorkflows();
  const { createGateway, listen } = await import('./local/gateway.ts');
  const server = createGateway({ throttling: false });
  await listen(server, { port, host: '127.0.0.1' });

  // The demo's merchants make their locations and campaigns through the API: it listens first.
  const scratch = mkdtempSync(join(tmpdir(), 'soak-'));
  const { seedDemoIfEmpty } = await import('./demo/seed.ts');
  const demo = (await seedDemoIfEmpty({ baseUrl, demoFile: join(scratch, 'demo.json') }))!;
  rmSync(scratch, { recursive: true, force: true });

  const [{ createUser }, { issueToken }, { addCreditCard }, { USER_PERMISSIONS }] = await Promise.all([
    import('#shared/domain/identity/users.ts'),
    import('#shared/auth/tokens.ts'),
    import('#shared/domain/cards/credit-cards.ts'),
    import('#shared/routes.ts'),
  ]);
  const customers: Customer[] = [];
  for (let index = 0; index < customerCount; index++) {
    const user = await createUser(demo.app.id, {
      email: `soak-${index}-${randomUUID().slice(0, 6)}@example.com`,
      first_name: 'Soak',
      last_name: `Customer${index}`,
      password: 'soak password 1',
    });
    const token = await issueToken({ subject: 'user', userId: user.user_id, appId: demo.app.id, permissions: USER_PERMISSIONS, unlimited: true });
    await addCreditCard(user.user_id, `fake-valid-nonce-soak-${user.user_id}`);
    customers.push({ id: user.user_id, token, qr: user.payment_token_data, busy: false });
  }

  const stop = async () => {
    agent.destroy();
    await stopLocalWorkflows();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    await dynamo.stop();
  };
  return { demo: demo as any, customers, stop };
}

// --- The workload -----------------------------------------------------------------------------------

type Demo = Awaited<ReturnType<typeof startStack>>['demo'];

function pick<T>(items: readonly T[]): T {
  return items[Math.floor(Math.random() * items.length)]!;
}

const between = (low: number, high: number) => low + Math.floor(Math.random() * (high - low + 1));

function workload(demo: Demo, customers: Customer[]) {
  const merchant = demo.merchant as { id: number; token: string; location_ids: number[]; manager_confirmation?: string };
  const inStoreLocation = merchant.location_ids[0]!;
  const loads: { externalIdentifier: string; customer: Customer; answer: string }[] = [];
  const refundable: string[] = [];
  const replayMismatches: string[] = [];
  let sequence = 0;

  /** A customer not in the middle of an order (one order at a time per customer, as in a shop). */
  const freeCustomer = (): Customer | undefined => {
    const free = customers.filter((customer) => !customer.busy);
    return free.length > 0 ? pick(free) : undefined;
  };

  async function load() {
    const repeat = loads.length > 0 && Math.random() < 0.15 ? pick(loads) : undefined;
    const customer = repeat?.customer ?? pick(customers);
    const externalIdentifier = repeat?.externalIdentifier ?? `soak-load-${++sequence}`;
    const answer = await measured('gift card load', [200], 'POST', `/v15/merchants/${merchant.id}/gift_card_value_additions`, {
      token: merchant.token,
      body: { gift_card_value_addition: { payment_token_data: customer.qr, value_amount: between(10, 50) * 100, external_identifier: externalIdentifier } },
    });
    if (answer.status !== 200) return;
    if (repeat) {
      if (answer.text !== repeat.answer) replayMismatches.push(`load ${externalIdentifier}: ${repeat.answer} then ${answer.text}`);
    } else loads.push({ externalIdentifier, customer, answer: answer.text });
  }

  async function inStoreOrder(customer: Customer) {
    const spend = between(5, 40) * 100;
    const proposed = await measured('propose order', [200], 'POST', '/v15/proposed_orders', {
      token: merchant.token,
      body: { proposed_order: { location_id: inStoreLocation, payment_token_data: customer.qr, spend_amount: spend, tax_amount: 0 } },
    });
    if (proposed.status !== 200) return;
    const discount = Math.random() < 0.5 ? (proposed.body.proposed_order.discount_amount as number) : 0;
    const completed = await measured('complete order', [200], 'POST', '/v15/completed_orders', {
      token: merchant.token,
      headers: { 'Idempotency-Key': `soak-complete-${randomUUID()}` },
      body: {
        completed_order: {
          proposed_order_uuid: proposed.body.proposed_order.uuid,
          location_id: inStoreLocation,
          payment_token_data: customer.qr,
          spend_amount: spend,
          tax_amount: 0,
          tip_amount: between(0, 3) * 100,
          applied_discount_amount: discount,
          items: [{ item: { name: 'Soak special', sku: demo.item_campaign_sku ?? 'soak', quantity: 1, charged_price_amount: spend } }],
        },
      },
    });
    if (completed.status === 200) refundable.push(completed.body.order.uuid);
  }

  async function refund() {
    if (refundable.length === 0) return reads();
    const uuid = refundable.splice(Math.floor(Math.random() * refundable.length), 1)[0]!;
    await measured('refund', [200], 'POST', `/v15/orders/${uuid}/refund`, {
      token: merchant.token,
      headers: { 'Idempotency-Key': `soak-refund-${uuid}` },
      body: { refund: { manager_confirmation: merchant.manager_confirmation ?? null } },
    });
  }

  async function orderAhead(customer: Customer) {
    const menu = demo.menu as { location_id: number; item_with_option: { id: number; option_id: number } };
    const started = await measured('order ahead start', [200], 'POST', '/v15/order_ahead/orders', {
      token: customer.token,
      body: {
        order: {
          location_id: menu.location_id,
          conveyance: { fulfillment_type: 'pickup' },
          items: [{ item: { id: menu.item_with_option.id, quantity: between(1, 3), option_ids: [menu.item_with_option.option_id] } }],
        },
      },
    });
    if (started.status !== 200) return;
    const orderUrl = started.body.order.order_url as string;
    for (let poll = 0; poll < 30; poll++) {
      await sleep(1_050); // the poll limit is once a second
      const polled = await measured('order ahead poll', [200, 202], 'GET', orderUrl, { token: customer.token });
      if (polled.status === 202) continue;
      if (polled.status !== 200) return;
      const completionUrl = polled.body.order.order_completion_url as string;
      const submitted = await measured('order ahead complete', [202], 'POST', completionUrl, { token: customer.token });
      if (submitted.status !== 202) return;
      // The completion workflow charges and forwards; its order_url answers 202 until it has an outcome.
      for (let completionPoll = 0; completionPoll < 60; completionPoll++) {
        await sleep(1_050);
        const completed = await measured('order ahead completion poll', [200, 202], 'GET', submitted.body.order.order_url as string, { token: customer.token });
        if (completed.status === 202) continue;
        if (completed.status === 200) refundable.push(completed.body.order.uuid);
        return;
      }
      failures.push(`order ahead completion ${submitted.body.order.order_url} still in progress after 60 polls`);
      return;
    }
    failures.push(`order ahead ${orderUrl} still validating after 30 polls`);
  }

  async function reads() {
    const customer = pick(customers);
    const campaigns = Object.entries(demo.campaigns as Record<string, number>);
    const [kind, campaignId] = pick(campaigns);
    const representation = pick([
      'basic_v1',
      `${kind === 'custom_progress' ? 'custom_progress_based' : `${kind.replace('_gift_card', '')}_based${kind.endsWith('gift_card') ? '_gift_card' : ''}_loyalty`}_v1`,
    ]);
    const choice = between(1, 4);
    if (choice === 1) await measured('read locations', [200, 204], 'GET', `/v15/apps/${demo.app.id}/locations`);
    else if (choice === 2) await measured('read orders', [200, 204], 'GET', '/v15/apps/orders', { token: customer.token });
    else if (choice === 3) await measured('read rewards', [200, 204], 'GET', `/v15/merchants/${merchant.id}/rewards`, { token: customer.token });
    else await measured('read campaign', [200], 'GET', `/v15/campaigns/${campaignId}/${representation}`, { token: customer.token });
  }

  /** The mix: weights out of 100. */
  async function step() {
    const roll = Math.random() * 100;
    if (roll < 15) return load();
    if (roll < 25) return refund();
    if (roll < 60) return reads();
    const customer = freeCustomer();
    if (!customer) return reads();
    customer.busy = true;
    try {
      return roll < 88 ? await inStoreOrder(customer) : await orderAhead(customer);
    } finally {
      customer.busy = false;
    }
  }

  return { step, replayMismatches, counts: () => ({ loads: loads.length }) };
}

// --- Run --------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  const startedAt = new Date();
  print(`soak: starting a local stack (in-memory DynamoDB Local, local workflows, gateway on 127.0.0.1, no throttling)`);
  const stack = await startStack();
  try {
    print(`soak: seeded; ${stack.customers.length} customers; running ${durationSeconds} s at concurrency ${concurrency}`);
    const { step, replayMismatches } = workload(stack.demo, stack.customers);
    const deadline = Date.now() + durationSeconds * 1000;
    const crashes: string[] = [];
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (Date.now() < deadline) {
          try {
            await step();
          } catch (error) {
            if (crashes.length < 10) crashes.push((error as Error).stack ?? String(error));
          }
        }
      }),
    );
    const elapsedSeconds = (Date.now() - startedAt.getTime()) / 1000;

    const { auditLedger } = await import('#shared/domain/money/ledger.ts');
    const audit = await auditLedger();

    const all = [...latencies.values()].flat().sort((a, b) => a - b);
    const byStatus = new Map<number, number>();
    for (const counts of statuses.values()) for (const [status, count] of counts) byStatus.set(status, (byStatus.get(status) ?? 0) + count);
    const serverErrors = [...byStatus].filter(([status]) => status >= 500).reduce((sum, [, count]) => sum + count, 0);

    print();
    print(`soak: ${startedAt.toISOString()}, ${durationSeconds} s, concurrency ${concurrency}, ${stack.customers.length} customers`);
    print(`requests: ${requests} (${(requests / durationSeconds).toFixed(1)}/s)`);
    print(
      `statuses: ${[...byStatus]
        .sort(([a], [b]) => a - b)
        .map(([status, count]) => `${status}=${count}`)
        .join(' ')}`,
    );
    print(`latency ms: p50 ${percentile(all, 0.5).toFixed(1)}, p99 ${percentile(all, 0.99).toFixed(1)}, max ${(all.at(-1) ?? 0).toFixed(1)}`);
    print();
    print('operation                 count   p50 ms   p99 ms  statuses');
    for (const [label, values] of [...latencies].sort(([a], [b]) => a.localeCompare(b))) {
      const sorted = [...values].sort((a, b) => a - b);
      const codes = [...statuses.get(label)!].map(([status, count]) => `${status}=${count}`).join(' ');
      print(
        `${label.padEnd(24)} ${String(values.length).padStart(6)} ${percentile(sorted, 0.5).toFixed(1).padStart(8)} ${percentile(sorted, 0.99).toFixed(1).padStart(8)}  ${codes}`,
      );
    }
    print();
    print(`audit: ${audit.accounts} accounts, ${audit.entries} ledger entries, ${audit.mismatches.length} mismatches`);
    for (const mismatch of audit.mismatches.slice(0, 10)) print(`  ${JSON.stringify(mismatch)}`);
    print(`replays that answered differently: ${replayMismatches.length}`);
    for (const line of replayMismatches.slice(0, 5)) print(`  ${line}`);
    if (failures.length > 0) {
      print(`unexpected answers (first ${failures.length}):`);
      for (const line of failures) print(`  ${line}`);
    }
    if (crashes.length > 0) print(`workload errors:\n  ${crashes.join('\n  ')}`);
    if (errorLines.length > 0) print(`error log lines: ${errorLines.length}; first: ${errorLines[0]!.slice(0, 500)}`);
    print(`elapsed: ${elapsedSeconds.toFixed(1)} s`);

    const ok = serverErrors === 0 && audit.mismatches.length === 0 && replayMismatches.length === 0 && crashes.length === 0;
    print(ok ? 'soak: OK' : 'soak: FAILED (5xx, audit mismatch, replay mismatch or workload error)');
    return ok ? 0 : 1;
  } finally {
    await stack.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    writeError((error as Error).stack ?? String(error));
    process.exit(1);
  },
);
