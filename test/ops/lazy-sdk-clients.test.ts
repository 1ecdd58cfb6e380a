/**
 * The AWS SDK clients other than DynamoDB's are loaded on first use (a dynamic `import()` kept per process,
 * `loadedOnFirstUse` in shared/env.ts), not at import: shared/images/store.ts (S3 and its presigner),
 * shared/workflows/executions.ts (Step Functions), shared/queues/deliveries.ts (SQS),
 * shared/geocoding/amazon-location.ts (Places), shared/push/sns.ts (SNS), as shared/mail/mailer.ts loads SES. Checked on the bundles as the stack builds them: the package stays
 * external and is imported dynamically only (a static import of an external package is hoisted to the top
 * of the ESM bundle and loaded at every cold start, even from a module the bundle reaches through `import()`),
 * and the bundled dynamic import resolves against the runtime's SDK alone.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handlerEntry, PROJECT_ROOT } from '../../infra/constructs/api-function.ts';
import { EVENTS_STREAM_HANDLER, WEBHOOK_DELIVERY_HANDLER } from '../../infra/constructs/webhook-delivery.ts';
import { apiFunctionEsbuildOptions } from '../../infra/esbuild-options.ts';
import { finished, type ProcessResult } from '../support/child-process.ts';

/** Each lazily loaded package and functions that may load it. */
const LAZY: Record<string, string[]> = {
  '@aws-sdk/client-s3': ['locations-image-show', 'locations-image-show-v14', 'campaigns-image-show', 'campaigns-icon-show', 'order-ahead-menu-item-image-show'],
  '@aws-sdk/s3-request-presigner': ['locations-image-show', 'campaigns-icon-show'],
  '@aws-sdk/client-sfn': ['order-ahead-orders-create', 'order-ahead-orders-complete'],
  '@aws-sdk/client-sqs': ['webhook-endpoint-replays-create', EVENTS_STREAM_HANDLER, WEBHOOK_DELIVERY_HANDLER],
  '@aws-sdk/client-geo-places': ['user-addresses-create', 'user-addresses-update'],
  // Push notifications (shared/push/sns.ts): only the stream function sends them.
  '@aws-sdk/client-sns': [EVENTS_STREAM_HANDLER],
};

let directory: string;

beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'lazy-sdk-clients-'));
  // As in a Lambda sandbox: the runtime's AWS SDK v3 and nothing else resolves beside the bundle.
  mkdirSync(join(directory, 'node_modules'));
  symlinkSync(join(PROJECT_ROOT, 'node_modules', '@aws-sdk'), join(directory, 'node_modules', '@aws-sdk'));
});

afterAll(() => {
  if (directory) rmSync(directory, { recursive: true, force: true });
});

describe('SDK clients other than DynamoDB, in the bundles', () => {
  const handlers = [...new Set(Object.values(LAZY).flat())];

  it.each(handlers)(
    '%s imports them on first use only, and leaves them to the runtime',
    async (handler) => {
      const result = await build({
        ...apiFunctionEsbuildOptions({ [`${handler}/index`]: handlerEntry(handler) }, join(directory, 'metafile')),
        metafile: true,
        write: false,
      });
      const [output] = Object.values(result.metafile.outputs).filter((candidate) => candidate.entryPoint);
      const packages = Object.keys(LAZY).filter((name) => LAZY[name]!.includes(handler));
      for (const name of packages) {
        const imports = output!.imports.filter((entry) => entry.path === name);
        expect(imports.length, name).toBeGreaterThan(0);
        expect(
          imports.map((entry) => ({ kind: entry.kind, external: entry.external })),
          name,
        ).toEqual(imports.map(() => ({ kind: 'dynamic-import', external: true })));
      }
      // No other SDK package than DynamoDB's is imported at load.
      const atLoad = output!.imports.filter((entry) => entry.kind === 'import-statement' && entry.path.startsWith('@aws-sdk/'));
      expect(atLoad.map((entry) => entry.path).filter((path) => !/^@aws-sdk\/(client-dynamodb|lib-dynamodb|util-dynamodb)$/.test(path))).toEqual([]);
    },
    60_000,
  );

  it('a bundled image store loads S3 and the presigner on its first signed URLs (two at once)', async () => {
    const bundle = join(directory, 'store.mjs');
    const options = apiFunctionEsbuildOptions({}, directory);
    await build({
      ...options,
      entryPoints: undefined,
      outdir: undefined,
      outfile: bundle,
      stdin: {
        contents: [
          "import { signedImageUrl } from '#shared/images/store.ts';",
          "const urls = await Promise.all([signedImageUrl('images/a.jpg'), signedImageUrl('images/b.jpg')]);",
          'process.stdout.write(JSON.stringify(urls));',
        ].join('\n'),
        resolveDir: PROJECT_ROOT,
        sourcefile: 'store-entry.ts',
        loader: 'ts',
      },
    });
    const { code, stdout, stderr } = await run(bundle, { IMAGES_BUCKET: 'bucket', S3_ENDPOINT: 'http://127.0.0.1:9', AWS_REGION: 'us-east-1' });
    expect(code, stderr).toBe(0);
    const urls = JSON.parse(stdout) as string[];
    expect(urls.map((url) => new URL(url).pathname)).toEqual(['/bucket/images/a.jpg', '/bucket/images/b.jpg']);
    expect(new URL(urls[0]!).searchParams.get('X-Amz-Expires')).toBe('900');
  }, 60_000);

  it.each([
    [
      'Step Functions',
      "import { startValidation } from '#shared/workflows/executions.ts'; await startValidation({ order_uuid: 'x' });",
      { STEPFUNCTIONS_ENDPOINT: 'http://127.0.0.1:9', STATE_MACHINE_ARN: 'arn:aws:states:local:000000000000:stateMachine:x' },
    ],
    [
      'SQS',
      "import { delayRedelivery } from '#shared/queues/deliveries.ts'; await delayRedelivery('handle', 1);",
      { DELIVERY_QUEUE_URL: 'http://127.0.0.1:9/000000000000/q.fifo', AWS_ENDPOINT_URL_SQS: 'http://127.0.0.1:9' },
    ],
  ])(
    'a bundled %s port loads its client on first use: the call reaches the network',
    async (name, contents, env) => {
      const bundle = join(directory, `${name.replace(/\W/g, '')}.mjs`);
      await build({
        ...apiFunctionEsbuildOptions({}, directory),
        entryPoints: undefined,
        outdir: undefined,
        outfile: bundle,
        stdin: { contents, resolveDir: PROJECT_ROOT, sourcefile: 'entry.ts', loader: 'ts' },
      });
      const { code, stderr } = await run(bundle, {
        AWS_REGION: 'us-east-1',
        AWS_ACCESS_KEY_ID: 'local',
        AWS_SECRET_ACCESS_KEY: 'local',
        AWS_MAX_ATTEMPTS: '1',
        ...env,
      });
      // The package loaded (no ERR_MODULE_NOT_FOUND) and the call failed where it should: nothing listens there.
      expect(code).not.toBe(0);
      expect(stderr).not.toMatch(/ERR_MODULE_NOT_FOUND|Cannot find/);
      expect(stderr).toMatch(/ECONNREFUSED/);
    },
    60_000,
  );
});

function run(bundle: string, env: Record<string, string>): Promise<ProcessResult> {
  return finished(spawn(process.execPath, [bundle], { cwd: directory, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] }));
}
