/**
 * The conservation model of issue 33 point 8 (test/model/conservation*.test.ts): fast-check draws random sequences
 * of the money operations (gift card loads and removals, proposed + completed orders, one-step orders, remote checks,
 * order-ahead orders, refunds, detached refunds, credit grants that expire, progress adjustments, gift card orders,
 * credit checks) by two merchants and three customers (one sandbox card each: paid in full, limited funds,
 * declined), some steps sent as concurrent batches (and some requests twice at once under one Idempotency-Key), some
 * batches under injected DynamoDB faults (shared/db/faults.ts) with clients that retry as test/faults' do;
 * everything through HTTP against DynamoDB Local.
 *
 * The model counts only what legitimately entered each account; an outcome it cannot know (a request that never got
 * a final answer under faults) counts the way that loosens the bound, so the property never blames the API for the
 * model's ignorance. After each sequence: the ledger audit is clean (zero-sum and source rules, auditLedger), no gift
 * card holds more than was loaded or given to it less what was removed, no card account more than the model saw
 * charged, no credit account more than the grants still alive, the detached refunds, the rewards the visits could
 * earn and the discounts refunds may have restored, and no customer got back more than they paid (refunded orders
 * plus the detached credit they still hold).
 *
 * A test file using it sets DYNAMODB_FAULTS (rate 0) before the DynamoDB client is created, so faulty batches can
 * switch the injection on.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { expect } from 'vitest';
import type { ApiResult, TestApi } from './api.ts';
import { conservationWorld, VISIT_REWARD, VISITS_PER_REWARD, type ConservationWorld, type ModelRequest, type Send } from './conservation.ts';
import { configureFaults, setFaultsActive, type FaultLayer } from '#shared/db/faults.ts';
import { auditLedger, cardAccountKey, creditAccountKey, getBalance, giftCardAccountKey } from '#shared/domain/money/ledger.ts';
import { detachedAccountKey } from '#shared/domain/orders/detached-refunds.ts';

const MERCHANTS = 2;
const CUSTOMERS = 3;
/** Share of DynamoDB calls that fail in a faulty batch (test/faults uses the same). */
const FAULT_RATE = 0.1;
/** A client's bound on sending one request again (test/faults/retrying-client.ts: 40). */
const MAX_ATTEMPTS = 40;
/** A grant's expiry is stored to the second: past this margin after its duration it has surely expired. */
const EXPIRY_MARGIN_MS = 1_500;

export type Op =
  | { kind: 'load'; merchant: number; customer: number; amount: number; copies: number }
  | { kind: 'remove'; merchant: number; customer: number; amount: number }
  | { kind: 'order'; merchant: number; customer: number; spend: number; applyDiscount: boolean; partial: boolean }
  | { kind: 'oneStep'; merchant: number; customer: number; spend: number; applyDiscount: boolean; copies: number }
  | { kind: 'check'; merchant: number; customer: number; spend: number; tip: number; applyDiscount: boolean }
  | { kind: 'orderAhead'; merchant: number; customer: number; quantity: number }
  | { kind: 'refund'; order: number; copies: number }
  | { kind: 'detached'; order: number; fraction: number; copies: number }
  | { kind: 'grant'; merchant: number; customer: number; amount: number; seconds: number; copies: number }
  | { kind: 'adjust'; merchant: number; customer: number; visits: number }
  | { kind: 'giftOrder'; merchant: number; buyer: number; recipient: number; amount: number; copies: number }
  | { kind: 'creditCheck'; merchant: number; customer: number }
  | { kind: 'wait'; seconds: number };

/** One step: its operations sent at once, with DynamoDB failing under `faults` when set. */
export interface Batch {
  ops: Op[];
  faults?: { seed: number; layer: FaultLayer };
}

/** Parties drawn unevenly (the first merchant and customer three times as often), so operations meet on one account. */
const partyIndex = (count: number) =>
  fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: count - 1, arbitrary: fc.integer({ min: 1, max: count - 1 }) });
const merchant = partyIndex(MERCHANTS);
const customer = partyIndex(CUSTOMERS);
const party = { merchant, customer };
/** A request sent once, or twice at once under one Idempotency-Key (a POS that double-sends). */
const copies = fc.integer({ min: 1, max: 2 });
/** The operations (weights sum to 36), order-ahead orders weighted `orderAheadWeight` beside them (0: none; they need the local workflows). */
const operation = (orderAheadWeight: number): fc.Arbitrary<Op> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.record({ kind: fc.constant('load' as const), ...party, amount: fc.integer({ min: 1000, max: 5000 }), copies }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('remove' as const), ...party, amount: fc.integer({ min: 1, max: 1500 }) }) },
    {
      weight: 4,
      arbitrary: fc.record({
        kind: fc.constant('order' as const),
        ...party,
        spend: fc.integer({ min: 100, max: 4000 }),
        applyDiscount: fc.boolean(),
        partial: fc.boolean(),
      }),
    },
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant('oneStep' as const),
        ...party,
        spend: fc.integer({ min: 100, max: 4000 }),
        applyDiscount: fc.boolean(),
        copies,
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('check' as const),
        ...party,
        spend: fc.integer({ min: 100, max: 4000 }),
        tip: fc.integer({ min: 0, max: 300 }),
        applyDiscount: fc.boolean(),
      }),
    },
    { weight: 4, arbitrary: fc.record({ kind: fc.constant('refund' as const), order: fc.nat(7), copies: fc.integer({ min: 1, max: 3 }) }) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('detached' as const), order: fc.nat(7), fraction: fc.constantFrom(0.25, 0.5, 1), copies }) },
    // Grants of a second to a few (they expire within the sequence) or a day (they outlive it).
    {
      weight: 4,
      arbitrary: fc.record({
        kind: fc.constant('grant' as const),
        ...party,
        amount: fc.integer({ min: 100, max: 2000 }),
        seconds: fc.constantFrom(1, 2, 4, 8, 86_400),
        copies,
      }),
    },
    // A few visits either way: at most one reward's worth, so bounds on adjustments (issue 33.2) never refuse them.
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('adjust' as const), ...party, visits: fc.constantFrom(-2, -1, 1, 2, 3) }) },
    // To registered recipients only (gift card orders to new emails are another change's).
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('giftOrder' as const),
        merchant,
        buyer: customer,
        recipient: customer,
        amount: fc.integer({ min: 1000, max: 5000 }),
        copies,
      }),
    },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('creditCheck' as const), ...party }) },
    // Time passing, so grants expire between operations (and between each other's expiries).
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('wait' as const), seconds: fc.integer({ min: 1, max: 2 }) }) },
    ...(orderAheadWeight > 0
      ? [{ weight: orderAheadWeight, arbitrary: fc.record({ kind: fc.constant('orderAhead' as const), ...party, quantity: fc.integer({ min: 1, max: 3 }) }) }]
      : []),
  );
const batch = (orderAheadWeight: number): fc.Arbitrary<Batch> =>
  fc.record(
    {
      ops: fc.array(operation(orderAheadWeight), { minLength: 1, maxLength: 3 }),
      // One batch in six under faults.
      faults: fc.oneof(
        { weight: 5, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.record({ seed: fc.integer({ min: 1, max: 1_000_000 }), layer: fc.constantFrom<FaultLayer>('call', 'attempt') }) },
      ),
    },
    { requiredKeys: ['ops'] },
  );
/** A sequence of up to 10 steps. */
export const sequence = (options: { orderAheadWeight: number }) => fc.array(batch(options.orderAheadWeight), { minLength: 1, maxLength: 10 });

interface ModelOrder {
  uuid: string;
  merchant: number;
  customer: number;
  total: number;
  discount: number;
}

/** What legitimately entered (or left) each account, per `merchant:customer`. */
interface Model {
  /** Gift card value loaded or received from gift card orders. */
  giftCardIn: Map<string, number>;
  /** Gift card value removed (only removals answered 200: one the model is unsure of loosens nothing). */
  removed: Map<string, number>;
  /** What the customer paid: completed orders' totals and gift card orders bought. */
  charged: Map<string, number>;
  orders: ModelOrder[];
  /** Orders whose refund was answered 200 (counted once, however often repeated). */
  refunded: Set<string>;
  /** Orders that may have been refunded: their applied discount may be credit again. */
  maybeRefunded: Set<string>;
  detachedIssued: Map<string, number>;
  /** Grants that may have been given, with the time after which each has surely expired. */
  grants: { at: string; amount: number; expiredAfter: number }[];
  /** Visits that may count toward the visit campaign: every order that may have completed, positive adjustments. */
  visits: Map<string, number>;
  /** Discounts given back outside a refund (a rejected order-ahead order's applied credit). */
  restored: Map<string, number>;
}

const newModel = (): Model => ({
  giftCardIn: new Map(),
  removed: new Map(),
  charged: new Map(),
  orders: [],
  refunded: new Set(),
  maybeRefunded: new Set(),
  detachedIssued: new Map(),
  grants: [],
  visits: new Map(),
  restored: new Map(),
});

const key = (merchant: number, customer: number) => `${merchant}:${customer}`;
const add = (map: Map<string, number>, at: string, amount: number) => map.set(at, (map.get(at) ?? 0) + amount);
const sum = (values: Iterable<number>) => [...values].reduce((total, value) => total + value, 0);

type Outcome = 'done' | 'refused' | 'unknown';
/**
 * A final answer's meaning: 2xx happened; a 4xx did not (a 409 or 429 is "not now", which a client retries; still
 * one after every retry under faults may hide an attempt that is in flight: unknown); a 5xx may have happened.
 */
function outcome(response: ApiResult, faulty: boolean): Outcome {
  if (response.status < 300) return 'done';
  if (response.status >= 500) return 'unknown';
  if (response.status === 409 || response.status === 429) return faulty ? 'unknown' : 'refused';
  return 'refused';
}
const mayHaveHappened = (response: ApiResult, faulty: boolean) => outcome(response, faulty) !== 'refused';

/**
 * A POS or app that sends a request again, unchanged with its Idempotency-Key, while the answer is "try again" (409,
 * 429; and any 5xx under faults). Without faults a 5xx is a failure of the property: the API owes a 4xx or success.
 */
function sender(api: TestApi, faulty: boolean): Send {
  return async (request: ModelRequest, idempotencyKey = randomUUID()) => {
    const headers = request.method === 'GET' ? request.options.headers : { ...request.options.headers, 'Idempotency-Key': `model-${idempotencyKey}` };
    for (let attempt = 1; ; attempt++) {
      const response = await api.call(request.method, request.path, { ...request.options, headers });
      if (!faulty) expect(response.status, `${request.method} ${request.path}: ${response.text}`).toBeLessThan(500);
      const again = response.status === 409 || response.status === 429 || response.status >= 500;
      if (!again || attempt >= MAX_ATTEMPTS) return response;
      const retryAfterMs = Number(response.headers.get('retry-after') ?? 0) * 1000;
      await sleep(Math.min(500, Math.max(retryAfterMs > 0 ? 200 : 0, 25 * attempt)) + Math.random() * 25);
    }
  };
}

/** The request sent `copies` times at once under one key; the answer that counts is any success, else the first. */
async function sendCopies(send: Send, request: ModelRequest, copies: number): Promise<ApiResult> {
  const idempotencyKey = randomUUID();
  const responses = await Promise.all(Array.from({ length: copies }, () => send(request, idempotencyKey)));
  return responses.find((response) => response.status < 300) ?? responses.find((response) => response.status >= 500) ?? responses[0]!;
}

/** Records a completed order (any flow) the customer may have paid for: refundable when its uuid is known. */
function recordOrder(model: Model, at: { merchant: number; customer: number }, order: { uuid?: string; total: number; discount: number }) {
  const pair = key(at.merchant, at.customer);
  add(model.charged, pair, order.total);
  add(model.visits, pair, 1);
  if (order.uuid) model.orders.push({ uuid: order.uuid, merchant: at.merchant, customer: at.customer, total: order.total, discount: order.discount });
}

/** A settled order's answer (completion, one-step order, check finalisation) into the model. */
function recordSettlement(
  model: Model,
  faulty: boolean,
  step: { merchant: number; customer: number },
  response: ApiResult,
  requested: { total: number; discount: number },
) {
  const result = outcome(response, faulty);
  if (result === 'done') recordOrder(model, step, { uuid: response.body.order.uuid, total: response.body.order.total_amount, discount: requested.discount });
  else if (result === 'unknown') recordOrder(model, step, requested);
}

async function run(world: ConservationWorld, model: Model, send: Send, faulty: boolean, step: Op): Promise<void> {
  switch (step.kind) {
    case 'load': {
      const response = await sendCopies(send, world.load(step.merchant, step.customer, step.amount), step.copies);
      if (mayHaveHappened(response, faulty)) add(model.giftCardIn, key(step.merchant, step.customer), step.amount);
      return;
    }
    case 'remove': {
      const response = await send(world.remove(step.merchant, step.customer, step.amount));
      if (outcome(response, faulty) === 'done') add(model.removed, key(step.merchant, step.customer), step.amount);
      return;
    }
    case 'order': {
      const { response, discount } = await world.order(send, step.merchant, step.customer, step);
      recordSettlement(model, faulty, step, response, { total: step.spend, discount });
      return;
    }
    case 'oneStep': {
      // The POS looks at the credit first when it applies it; a concurrent order may spend it meanwhile (422).
      const credit = step.applyDiscount ? await send(world.creditCheck(step.merchant, step.customer)) : undefined;
      const discount = Math.min(step.spend, Math.max(0, (credit?.body?.merchant_funded_credit?.discount_amount as number | undefined) ?? 0));
      const response = await sendCopies(send, world.oneStepOrder(step.merchant, step.customer, step.spend, discount), step.copies);
      recordSettlement(model, faulty, step, response, { total: step.spend, discount });
      return;
    }
    case 'check': {
      const { response, discount } = await world.remoteCheck(send, step.merchant, step.customer, step);
      recordSettlement(model, faulty, step, response, { total: step.spend + step.tip, discount });
      return;
    }
    case 'orderAhead': {
      const { response, priced, submitted } = await world.orderAhead(send, step.merchant, step.customer, step.quantity);
      if (!priced) return;
      // What the customer owes before the discount (an in-store total's meaning): the priced total is net of a
      // discount that may shrink by the completion (an expired grant), the card then paying more (docs/order-ahead.md).
      const total = priced.total_amount + priced.discount_amount;
      if (response.status === 200 && response.body.order.state === 'completed') {
        recordOrder(model, step, { uuid: priced.uuid, total, discount: priced.discount_amount });
      } else if (submitted || mayHaveHappened(response, faulty)) {
        // Rejected by the provider (or declined, or its outcome unknown): it may have been charged and given back,
        // its applied credit restored; count it as paid and its discount as restored, which only loosens the bounds.
        recordOrder(model, step, { total, discount: priced.discount_amount });
        add(model.restored, key(step.merchant, step.customer), priced.discount_amount);
      }
      return;
    }
    case 'refund': {
      const order = model.orders[step.order % Math.max(model.orders.length, 1)];
      if (!order) return;
      // Copies at once, each under its own key (POS terminals that each refund it): the order is their natural key.
      const responses = await Promise.all(Array.from({ length: step.copies }, () => send(world.refund(order.merchant, order.uuid))));
      if (responses.some((answer) => answer.status === 200)) model.refunded.add(order.uuid);
      if (responses.some((answer) => mayHaveHappened(answer, faulty))) model.maybeRefunded.add(order.uuid);
      return;
    }
    case 'detached': {
      // A detached refund for (part of) an earlier order, to its customer at its merchant, as a POS does when the
      // order is not at hand; none before the first order.
      const order = model.orders[step.order % Math.max(model.orders.length, 1)];
      if (!order) return;
      const amount = Math.max(1, Math.floor(order.total * step.fraction));
      const response = await sendCopies(send, world.detachedRefund(order.merchant, order.customer, amount), step.copies);
      if (mayHaveHappened(response, faulty)) add(model.detachedIssued, key(order.merchant, order.customer), amount);
      return;
    }
    case 'grant': {
      const response = await sendCopies(send, world.grant(step.merchant, step.customer, step.amount, step.seconds), step.copies);
      if (mayHaveHappened(response, faulty))
        model.grants.push({ at: key(step.merchant, step.customer), amount: step.amount, expiredAfter: Date.now() + step.seconds * 1000 + EXPIRY_MARGIN_MS });
      return;
    }
    case 'adjust': {
      const response = await send(world.adjustVisits(step.merchant, step.customer, step.visits));
      if (step.visits > 0 && mayHaveHappened(response, faulty)) add(model.visits, key(step.merchant, step.customer), step.visits);
      return;
    }
    case 'giftOrder': {
      const response = await sendCopies(send, world.giftCardOrder(step.merchant, step.buyer, step.recipient, step.amount), step.copies);
      if (!mayHaveHappened(response, faulty)) return;
      add(model.giftCardIn, key(step.merchant, step.recipient), step.amount);
      add(model.charged, key(step.merchant, step.buyer), step.amount);
      return;
    }
    case 'creditCheck': {
      await send(world.creditCheck(step.merchant, step.customer));
      return;
    }
    case 'wait': {
      await sleep(step.seconds * 1000);
      return;
    }
  }
}

/** Final answers by operation across the runs of one property (printed after it). */
const answers = new Map<string, number>();
const tally = (label: string) => answers.set(label, (answers.get(label) ?? 0) + 1);

async function runBatch(api: TestApi, world: ConservationWorld, model: Model, step: Batch): Promise<void> {
  const faulty = step.faults !== undefined;
  if (step.faults) {
    configureFaults({ rate: FAULT_RATE, seed: step.faults.seed, layer: step.faults.layer });
    setFaultsActive(true);
  }
  try {
    const send = sender(api, faulty);
    await Promise.all(
      step.ops.map(async (op) => {
        // The last answer each operation got (its final step's), tallied to show what the runs exercised.
        let last: number | undefined;
        await run(
          world,
          model,
          async (request, idempotencyKey) => {
            const response = await send(request, idempotencyKey);
            last = response.status;
            return response;
          },
          faulty,
          op,
        );
        tally(`${op.kind}${faulty ? ' (faults)' : ''} ${last ?? 'nothing to do'}`);
      }),
    );
  } finally {
    setFaultsActive(false);
  }
}

async function checkConservation(api: TestApi, world: ConservationWorld, model: Model): Promise<void> {
  // The POS's credit check first: it expires every grant whose time has passed (a ledger movement), as any read of credit does.
  const checkedAt = Date.now();
  const send = sender(api, false);
  for (let merchant = 0; merchant < MERCHANTS; merchant++) {
    for (let customer = 0; customer < CUSTOMERS; customer++) expect((await send(world.creditCheck(merchant, customer))).status).toBe(200);
  }
  expect((await auditLedger()).mismatches).toEqual([]);
  for (let merchant = 0; merchant < MERCHANTS; merchant++) {
    for (let customer = 0; customer < CUSTOMERS; customer++) {
      const at = key(merchant, customer);
      const [userId, merchantId] = [world.userId(customer), world.merchantId(merchant)];
      const balance = async (account: string) => (await getBalance(account)).balance;

      const giftCard = await balance(giftCardAccountKey(userId, merchantId));
      expect(giftCard, `gift card ${at}`).toBeLessThanOrEqual((model.giftCardIn.get(at) ?? 0) - (model.removed.get(at) ?? 0));

      const charged = model.charged.get(at) ?? 0;
      expect(await balance(cardAccountKey(userId, merchantId)), `card ${at}`).toBeLessThanOrEqual(charged);

      const liveGrants = sum(model.grants.filter((grant) => grant.at === at && grant.expiredAfter > checkedAt).map((grant) => grant.amount));
      const rewards = Math.floor((model.visits.get(at) ?? 0) / VISITS_PER_REWARD) * VISIT_REWARD;
      const restoredByRefunds = sum(
        model.orders.filter((order) => key(order.merchant, order.customer) === at && model.maybeRefunded.has(order.uuid)).map((order) => order.discount),
      );
      const creditBound = liveGrants + (model.detachedIssued.get(at) ?? 0) + rewards + restoredByRefunds + (model.restored.get(at) ?? 0);
      expect(await balance(creditAccountKey(userId, merchantId)), `credit ${at}`).toBeLessThanOrEqual(creditBound);

      // What the customer got back: each refunded order once, plus the detached credit they still hold (the
      // ledger's running total, net of what order refunds took back), never more than was issued or paid.
      const detached = await balance(detachedAccountKey(userId, merchantId));
      expect(detached, `detached credit at ${at}`).toBeLessThanOrEqual(model.detachedIssued.get(at) ?? 0);
      const refunded = sum(
        model.orders.filter((order) => key(order.merchant, order.customer) === at && model.refunded.has(order.uuid)).map((order) => order.total),
      );
      expect(refunded + detached, `returned to ${at}`).toBeLessThanOrEqual(charged);
    }
  }
}

/** Runs one sequence in a fresh world and checks that money was conserved. */
export async function holds(api: TestApi, steps: Batch[]): Promise<void> {
  // A fresh world per sequence: what one sequence left cannot hide or excuse another's.
  const world = await conservationWorld();
  const model = newModel();
  for (const step of steps) await runBatch(api, world, model, step);
  await checkConservation(api, world, model);
}

/**
 * Runs and time limit: CONSERVATION_RUNS and CONSERVATION_TIME_LIMIT_S (scripts/soak.ts --conservation) override a
 * file's defaults; CONSERVATION_SEED replays a draw. The time limit stops sequences and shrinking together (a failing
 * draw may shrink for minutes), which keeps npm test bounded.
 */
export function conservationSettings(defaults: { runs: number; timeLimitSeconds: number }) {
  return {
    runs: Number(process.env.CONSERVATION_RUNS ?? defaults.runs),
    timeLimitMs: Number(process.env.CONSERVATION_TIME_LIMIT_S ?? defaults.timeLimitSeconds) * 1000,
    seed: process.env.CONSERVATION_SEED ? Number(process.env.CONSERVATION_SEED) : undefined,
  };
}

/** The property: for every drawn sequence, money is conserved. */
export async function assertConservation(api: TestApi, options: { orderAheadWeight: number; runs: number; timeLimitMs: number; seed?: number }): Promise<void> {
  let sequences = 0;
  // The time limit abandons the sequence it interrupts, which keeps running (its faulty batch with DynamoDB faults
  // on): the next test must not start before it ends.
  let running: Promise<void> = Promise.resolve();
  try {
    await fc.assert(
      fc.asyncProperty(sequence(options), async (steps) => {
        sequences += 1;
        running = holds(api, steps);
        await running;
      }),
      { numRuns: options.runs, seed: options.seed, interruptAfterTimeLimit: options.timeLimitMs },
    );
  } finally {
    await running.catch(() => undefined);
    // A time limit ends the runs quietly: say how many sequences (shrinks included) this run covered.
    console.info(`conservation: ${sequences} sequences run (of ${options.runs} asked, within ${options.timeLimitMs / 1000} s); final answers by operation:`);
    console.info(
      [...answers]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([label, count]) => `  ${label}: ${count}`)
        .join('\n'),
    );
  }
}
