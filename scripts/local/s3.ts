/**
 * s3rver, the S3-compatible server of `npm start` and the tests: the image store's S3 client
 * (shared/images/store.ts) points at it through S3_ENDPOINT, so uploads, signed URLs and the redirects
 * run the same code as in AWS. `npm start` keeps its objects under .local/s3 (they survive restarts);
 * the tests use a temporary directory.
 */
import { createRequire } from 'node:module';
import type { S3Event } from 'aws-lambda';
import { consoleUploadCorsRule } from '#shared/http/console-headers.ts';

// s3rver is CommonJS without type declarations: what is used of it.
interface S3rverServer {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
  /** s3rver (a Koa app) emits each object's S3 notification, shaped as S3 sends it, as `event`. */
  on(name: 'event', listener: (event: S3Event) => void): void;
}
type S3rverConstructor = new (options: {
  address: string;
  port: number;
  directory: string;
  silent: boolean;
  configureBuckets: { name: string; configs: string[] }[];
}) => S3rverServer;
const S3rver = createRequire(import.meta.url)('s3rver') as S3rverConstructor;

/** The bucket of the local stack and the tests (the CDK stack names its own). */
export const LOCAL_IMAGES_BUCKET = 'loyalty-images-local';

export interface S3Local {
  endpoint: string;
  /**
   * Runs `handler` on each of s3rver's ObjectCreated events of keys under `prefix`, as the bucket's notification
   * does in AWS (infra/constructs/images.ts). A failure is logged (Lambda would retry it; here nothing does).
   */
  onObjectCreated(prefix: string, handler: (event: S3Event) => Promise<unknown>): void;
  stop(): Promise<void>;
}

/**
 * The bucket's CORS configuration as S3's XML, from the same rule the CDK gives the images bucket
 * (shared/http/console-headers.ts): without it s3rver answers the console's upload with no
 * Access-Control-Allow-Origin, and the browser hides the answer from the page.
 */
function corsConfiguration(consoleOrigin: string): string {
  const rule = consoleUploadCorsRule(consoleOrigin);
  const origins = rule.allowedOrigins.map((origin) => `<AllowedOrigin>${origin}</AllowedOrigin>`).join('');
  const methods = rule.allowedMethods.map((method) => `<AllowedMethod>${method}</AllowedMethod>`).join('');
  return `<CORSConfiguration><CORSRule>${origins}${methods}<MaxAgeSeconds>${rule.maxAgeSeconds}</MaxAgeSeconds></CORSRule></CORSConfiguration>`;
}

/** `consoleOrigin`: the merchant console's origin (the gateway's), which may post pictures to the bucket. */
export async function startS3Local(options: { directory: string; port?: number; host?: string; consoleOrigin?: string }): Promise<S3Local> {
  const host = options.host ?? '127.0.0.1';
  const server = new S3rver({
    address: host,
    port: options.port ?? 0,
    directory: options.directory,
    silent: true,
    configureBuckets: [{ name: LOCAL_IMAGES_BUCKET, configs: options.consoleOrigin ? [corsConfiguration(options.consoleOrigin)] : [] }],
  });
  const { port } = await server.run();
  return {
    endpoint: `http://${host}:${port}`,
    onObjectCreated(prefix, handler) {
      server.on('event', (event) => {
        const records = event.Records.filter((record) => record.eventName.startsWith('ObjectCreated:') && record.s3.object.key.startsWith(prefix));
        if (records.length === 0) return;
        handler({ Records: records }).catch((error: unknown) => console.error('s3 event handler failed', error));
      });
    },
    stop: () => server.close(),
  };
}
