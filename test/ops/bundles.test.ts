/**
 * The deployed artifact, tested (issue 18): every function is bundled exactly as the CDK stack
 * bundles it (infra/esbuild-options.ts mirrors API_FUNCTION_BUNDLING; `bundledFiles` copied beside
 * the bundle as the command hooks do), each into its own directory outside the repository with only
 * the runtime's AWS SDK resolvable, and serves one request with a valid token of its kind. A file
 * read at run time, a dynamic import or a dependency the bundle misses fails here, not in a deploy.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handlerEntry, PROJECT_ROOT } from '../../infra/constructs/api-function.ts';
import { routeEvent } from '../../bench/harness/route-event.ts';
import { VALIDATION_TASK_EXPORT, VALIDATION_TASK_HANDLER } from '../../infra/constructs/order-ahead-workflow.ts';
import { COMPLETION_TASK_EXPORT, COMPLETION_TASK_HANDLER } from '../../infra/constructs/order-ahead-completion-workflow.ts';
import { EVENTS_STREAM_HANDLER, WEBHOOK_DELIVERY_HANDLER } from '../../infra/constructs/webhook-delivery.ts';
import { apiFunctionEsbuildOptions } from '../../infra/esbuild-options.ts';
import { marshall } from '@aws-sdk/util-dynamodb';
import { eventItems } from '#shared/db/outbox.ts';
import { FALLBACK_HANDLER, USER_PERMISSIONS, routes, type Route } from '#shared/routes.ts';
import { useTestApi } from '../support/api.ts';
import { issueToken } from '#shared/auth/tokens.ts';
import { appFixture, merchantFixture, userFixture } from '../support/fixtures.ts';
import { staffToken } from '../support/staff.ts';
import { locationFixture } from '../support/locations.ts';

interface Job {
  name: string;
  bundle: string;
  exportName: string;
  event: unknown;
}

type Outcome = {
  name: string;
  result?: { statusCode?: number; headers?: Record<string, string>; body?: string; recorded?: boolean; queued?: number; batchItemFailures?: unknown[] };
  error?: string;
};

/** The bench's bundle target (docs/benchmarks.md), which the functions that serve no route must meet too. */
const MAX_BUNDLE_BYTES = 200 * 1024;
/** The webhook path's two functions (infra/constructs/webhook-delivery.ts): no routes, same bundling. */
const EVENT_FUNCTIONS = [
  { name: EVENTS_STREAM_HANDLER, exportName: 'streamHandler' },
  { name: WEBHOOK_DELIVERY_HANDLER, exportName: 'queueHandler' },
] as const;

/** Runner processes working through the bundles side by side (the machine has 2 cores). */
const RUNNERS = 2;
/** Answers that show a request went through parsing, authorization and validation to the domain. */
// 410: the operations gone for good (Facebook link and unlink), whatever the request.
const SERVED = [200, 204, 404, 405, 409, 410, 422];
/** Routes whose request here is complete enough to succeed. */
const EXPECTED_STATUS: Record<string, number> = {
  'facebook-connection-create': 410,
  'facebook-connection-delete': 410,
  'users-show': 200,
  'credit-cards-list': 200,
  'user-addresses-list': 200,
  'payment-token-show': 200,
  'access-tokens-delete': 204,
  'password-reset-page': 200,
  'openapi-show': 200,
  'docs-show': 200,
  'docs-assets-show': 200,
  [FALLBACK_HANDLER]: 404,
};

const api = useTestApi();
let directory: string;
const outcomes = new Map<string, Outcome>();

/** The merchant's own location: merchant routes under a location answer 401 for anyone else's (the contract). */
let merchantLocationId = '1';

function pathValue(name: string): string {
  if (name === 'location_id') return merchantLocationId;
  if (name === 'uuid') return randomUUID().replaceAll('-', '');
  if (name === 'file') return 'swagger-ui.css';
  if (name === 'representation_type') return 'spend_based_loyalty_v1';
  return '1';
}

/** The merchant of the tokens: a management route takes a staff member's token of the merchant its path names. */
let tokensMerchantId = '1';

/** `logout` is a token of its own: logging out revokes the token it is sent with; `owner` is a staff member's (management routes). */
function eventFor(route: Route | undefined, tokens: { user: string; merchant: string; owner: string; app: string; logout: string }) {
  const credential = route?.credential ?? 'none';
  let token: string | undefined;
  if (route?.handler === 'access-tokens-delete') token = tokens.logout;
  else if (route?.roles) token = tokens.owner;
  else if (credential === 'merchant' || credential === 'merchant-or-app') token = tokens.merchant;
  else if (credential === 'app') token = tokens.app;
  else if (credential !== 'none') token = tokens.user;
  return routeEvent(route, {
    host: 'bundles.test',
    userAgent: 'bundle-smoke-test',
    pathValue: route?.roles ? (name: string) => (name === 'merchant_id' ? tokensMerchantId : pathValue(name)) : pathValue,
    authorization: token === undefined ? undefined : `token ${token}`,
  });
}

function runBundles(jobs: Job[], jobsFile: string): Promise<Outcome[]> {
  writeFileSync(jobsFile, JSON.stringify(jobs));
  const runner = fileURLToPath(new URL('./bundle-runner.mjs', import.meta.url));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [runner, jobsFile], {
      // Outside the repository: nothing but the bundle's own directory and the SDK link resolves.
      cwd: directory,
      env: {
        PATH: process.env.PATH ?? '',
        TABLE_NAME: api.tableName,
        DYNAMODB_ENDPOINT: api.endpoint,
        AWS_REGION: 'local',
        STATE_MACHINE_ARN: 'arn:aws:states:local:000000000000:stateMachine:bundle-smoke-test',
        LOG_LEVEL: 'silent',
        POWERTOOLS_METRICS_DISABLED: 'true',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', () => {
      const results = stdout
        .split('\n')
        .filter((line) => line.startsWith('BUNDLE-RESULT '))
        .map((line) => JSON.parse(line.slice('BUNDLE-RESULT '.length)) as Outcome);
      if (results.length !== jobs.length) return reject(new Error(`runner reported ${results.length} of ${jobs.length} bundles: ${stderr.slice(-1000)}`));
      resolve(results);
    });
  });
}

beforeAll(async () => {
  const { app } = await appFixture();
  const user = await userFixture(app.app_id);
  const merchant = await merchantFixture(app.app_id);
  merchantLocationId = String((await locationFixture(merchant.merchant.merchant_id)).location_id);
  const [appToken, logout] = await Promise.all([
    issueToken({ subject: 'app', appId: app.app_id }),
    issueToken({ subject: 'user', userId: user.user.user_id, appId: app.app_id, permissions: USER_PERMISSIONS, unlimited: true }),
  ]);
  tokensMerchantId = String(merchant.merchant.merchant_id);
  const tokens = {
    user: user.token,
    merchant: merchant.token,
    owner: await staffToken(app.app_id, merchant.merchant.merchant_id, 'owner'),
    app: appToken,
    logout,
  };

  directory = mkdtempSync(join(tmpdir(), 'loyalty-bundles-'));
  // The Node.js 24 runtime provides the AWS SDK v3 (the one external of API_FUNCTION_BUNDLING); nothing else.
  mkdirSync(join(directory, 'node_modules'));
  symlinkSync(join(PROJECT_ROOT, 'node_modules', '@aws-sdk'), join(directory, 'node_modules', '@aws-sdk'));

  const targets = [
    ...routes.map((route) => ({ name: route.handler, route, exportName: 'handler' })),
    { name: FALLBACK_HANDLER, route: undefined, exportName: 'handler' },
    { name: VALIDATION_TASK_HANDLER, route: undefined, exportName: VALIDATION_TASK_EXPORT },
    { name: COMPLETION_TASK_HANDLER, route: undefined, exportName: COMPLETION_TASK_EXPORT },
    ...EVENT_FUNCTIONS.map((target) => ({ ...target, route: undefined })),
  ];
  // An inserted event of an audience with no endpoints (the stream queues nothing), and a queued delivery
  // to an endpoint that does not exist (dropped): each function reads the table and answers.
  const [, eventPut] = await eventItems(
    { type: 'credit_card.created', resource: { type: 'credit_card', id: '1' }, audience: 'app:999999999', data: {} },
    { newResource: true },
  );
  const streamEvent = { Records: [{ eventName: 'INSERT', dynamodb: { NewImage: marshall(eventPut!.Put!.Item, { removeUndefinedValues: true }) } }] };
  const queuedDelivery = {
    Records: [
      {
        messageId: randomUUID(),
        receiptHandle: 'bundle-smoke-test',
        body: JSON.stringify({ endpoint_id: 'we_none', event_id: 'evt_none', queued_at: Date.now() }),
        attributes: { MessageGroupId: 'we_none:credit_card:1', ApproximateReceiveCount: '1' },
      },
    ],
  };
  // One build per function, as the stack bundles it.
  await Promise.all(targets.map((target) => build(apiFunctionEsbuildOptions({ [`${target.name}/index`]: handlerEntry(target.name) }, directory))));
  for (const { route } of targets) {
    for (const file of route?.bundledFiles ?? []) copyFileSync(join(PROJECT_ROOT, file), join(directory, route!.handler, basename(file)));
  }

  const jobs: Job[] = targets.map((target) => ({
    name: target.name,
    bundle: join(directory, target.name, 'index.mjs'),
    exportName: target.exportName,
    // The workflow task gets the Catch's step for an order that does not exist: it records nothing.
    event:
      target.name === VALIDATION_TASK_HANDLER
        ? { step: 'record_failure', order_uuid: randomUUID(), failure: { Error: 'States.TaskFailed' } }
        : // The completion task asked to check an order that does not exist reads the table and fails the Task.
          target.name === COMPLETION_TASK_HANDLER
          ? { step: 'check', order_uuid: randomUUID() }
          : target.name === EVENTS_STREAM_HANDLER
            ? streamEvent
            : target.name === WEBHOOK_DELIVERY_HANDLER
              ? queuedDelivery
              : eventFor(target.route, tokens),
  }));
  const shares = Array.from({ length: RUNNERS }, (_, runner) => jobs.filter((_, index) => index % RUNNERS === runner));
  const results = await Promise.all(shares.map((share, runner) => runBundles(share, join(directory, `jobs-${runner}.json`))));
  for (const outcome of results.flat()) outcomes.set(outcome.name, outcome);
  // One esbuild call per function plus a request through each: slower than
  // the default hook timeout when the 2 cores are shared.
}, 300_000);

afterAll(async () => {
  if (directory) rmSync(directory, { recursive: true, force: true });
});

describe('deployed bundles', () => {
  it.each([...routes.map((route) => route.handler), FALLBACK_HANDLER])('%s serves a request from its own bundle', (name) => {
    const outcome = outcomes.get(name)!;
    expect(outcome.error).toBeUndefined();
    const status = outcome.result?.statusCode;
    expect(SERVED, `status ${status}: ${outcome.result?.body?.slice(0, 300)}`).toContain(status);
    if (EXPECTED_STATUS[name] !== undefined) expect(status).toBe(EXPECTED_STATUS[name]);
    expect(outcome.result?.headers?.['X-Request-Id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it(`${COMPLETION_TASK_HANDLER} runs its ${COMPLETION_TASK_EXPORT} from its own bundle`, () => {
    expect(outcomes.get(COMPLETION_TASK_HANDLER)!.error).toMatch(/is not a submitted order/);
  });

  it(`${VALIDATION_TASK_HANDLER} runs its ${VALIDATION_TASK_EXPORT} from its own bundle`, () => {
    const outcome = outcomes.get(VALIDATION_TASK_HANDLER)!;
    expect(outcome.error).toBeUndefined();
    expect(outcome.result).toEqual({ recorded: false });
  });

  it.each(EVENT_FUNCTIONS.map((target) => target.name))('%s bundles within the bundle target and runs its export from its own bundle', (name) => {
    expect(statSync(join(directory, name, 'index.mjs')).size).toBeLessThanOrEqual(MAX_BUNDLE_BYTES);
    const outcome = outcomes.get(name)!;
    expect(outcome.error).toBeUndefined();
    expect(outcome.result).toEqual(name === EVENTS_STREAM_HANDLER ? { queued: 0, mailed: 0 } : { batchItemFailures: [] });
  });
});
