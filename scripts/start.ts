/**
 * `npm start`: the whole API on this machine. DynamoDB Local (data under .local/ survives restarts),
 * the SES v2 emulator for email, s3rver for images (data under .local/s3), the table from the same definition the CDK stack deploys, demo data on first start, and the local
 * gateway serving the real handlers from the shared route table.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assertJava, startDynamoDbLocal, freePort } from './local/dynamodb-local.ts';
import { localClient } from './local/dynamodb-local.ts';
import { ensureTable } from './local/table.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const localDirectory = join(root, '.local');
const demoFile = join(localDirectory, 'demo.json');
const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '127.0.0.1';
const tableName = process.env.TABLE_NAME ?? 'loyalty-local';

function logLine(message: string, fields: Record<string, unknown> = {}): void {
  console.log(JSON.stringify({ level: 'info', message, time: new Date().toISOString(), ...fields }));
}

async function main(): Promise<void> {
  try {
    assertJava();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
  mkdirSync(localDirectory, { recursive: true });
  const dynamo = await startDynamoDbLocal({ port: Number(process.env.DYNAMODB_PORT ?? (await freePort())), dataDirectory: join(localDirectory, 'dynamodb') });
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  process.env.TABLE_NAME = tableName;
  process.env.AWS_REGION ??= 'local';
  process.env.PUBLIC_BASE_URL ??= `http://${host}:${port}`;
  logLine('dynamodb local started', { endpoint: dynamo.endpoint, data: join(localDirectory, 'dynamodb') });

  // Email: the same SES v2 client as in AWS, pointed at the emulator; its page lists what was sent.
  const { startSesLocal, LOCAL_MAIL_FROM } = await import('./local/ses.ts');
  const ses = await startSesLocal({ port: Number(process.env.SES_PORT ?? (await freePort())), host });
  process.env.SES_ENDPOINT = ses.endpoint;
  process.env.MAIL_FROM ??= LOCAL_MAIL_FROM;
  // Permissions-request callbacks may be plain http on this machine only (https only in AWS).
  process.env.ALLOW_HTTP_CALLBACKS ??= 'true';
  logLine('ses emulator started', { endpoint: ses.endpoint, mailbox: `${ses.endpoint}/` });

  // Images: the same S3 client as in AWS, pointed at s3rver; uploads live under .local/s3 across restarts.
  const { startS3Local, LOCAL_IMAGES_BUCKET } = await import('./local/s3.ts');
  // The console (served by the gateway at PUBLIC_BASE_URL) posts pictures straight to s3rver: its origin gets the CORS rule.
  const s3 = await startS3Local({
    directory: join(localDirectory, 's3'),
    port: Number(process.env.S3_PORT ?? (await freePort())),
    host,
    consoleOrigin: new URL(process.env.PUBLIC_BASE_URL ?? `http://${host}:${port}`).origin,
  });
  process.env.S3_ENDPOINT = s3.endpoint;
  process.env.IMAGES_BUCKET ??= LOCAL_IMAGES_BUCKET;
  logLine('s3rver started', { endpoint: s3.endpoint, bucket: process.env.IMAGES_BUCKET, data: join(localDirectory, 's3') });
  // Merchants' picture uploads: s3rver's events run the same processing function as the bucket's notification in AWS.
  const { UPLOAD_KEY_PREFIX } = await import('../shared/images/store.ts');
  s3.onObjectCreated(UPLOAD_KEY_PREFIX, async (event) => (await import('../functions/location-image-uploads-process.ts')).s3Handler(event));

  // Push notifications: the sandbox sink records each push as a JSON line (docs/app-surface.md, "Push notifications").
  process.env.PUSH_SANDBOX_FILE ??= join(localDirectory, 'push-notifications.jsonl');
  logLine('push sandbox', { file: process.env.PUSH_SANDBOX_FILE });

  const client = localClient(dynamo.endpoint);
  const created = await ensureTable(client, tableName);
  client.destroy();
  logLine(created ? 'table created' : 'table found', { table: tableName });

  const { startLocalWorkflows } = await import('./local/workflows.ts');
  await startLocalWorkflows();

  // Webhooks (docs/events.md): DynamoDB Local's stream -> the local FIFO delivery queue -> the tenants' URLs,
  // through the same functions as in AWS; the stream position survives restarts.
  const { startLocalDeliveryQueue } = await import('./local/delivery-queue.ts');
  const { startLocalEventStream } = await import('./local/event-stream.ts');
  const deliveries = await startLocalDeliveryQueue();
  const streamClient = localClient(dynamo.endpoint);
  const eventStream = await startLocalEventStream({
    endpoint: dynamo.endpoint,
    client: streamClient,
    tableName,
    checkpointFile: join(localDirectory, 'event-stream.json'),
  });
  logLine('webhook delivery started', { stream: 'DynamoDB Local', checkpoint: join(localDirectory, 'event-stream.json') });

  // The merchant console's files, rebuilt when a source is newer than console/dist (docs/console.md).
  const { ensureConsoleBuilt } = await import('./console-build.ts');
  if (await ensureConsoleBuilt()) logLine('console built', { dist: join(root, 'console', 'dist') });

  const { createGateway, listen } = await import('./local/gateway.ts');
  const server = createGateway();
  const boundPort = await listen(server, { port, host });
  logLine('api listening', { url: `http://${host}:${boundPort}` });
  // After the gateway listens: the demo merchants' owners sign in and make their locations and campaigns through it.
  const { seedDemoIfEmpty, printWalkthrough } = await import('./demo/seed.ts');
  const demo = await seedDemoIfEmpty({ baseUrl: process.env.PUBLIC_BASE_URL, apiUrl: `http://${host}:${boundPort}`, demoFile });
  const demoSettings = demo ?? JSON.parse(readFileSync(demoFile, 'utf8'));
  // The console signs staff in through the demo app (its /console/config.json).
  process.env.CONSOLE_API_KEY ??= demoSettings.app.api_key;
  printWalkthrough(demoSettings);
  logLine('merchant console', { url: `http://${host}:${boundPort}/console/`, owner: demoSettings.merchant.owner?.email });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logLine('stopping', { signal });
    server.close();
    server.closeAllConnections();
    await eventStream.stop();
    await deliveries.stop();
    streamClient.destroy();
    await Promise.all([dynamo.stop(), ses.stop(), s3.stop()]);
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  if (!existsSync(demoFile)) logLine('demo file missing', { demoFile });
}

main().catch((error: unknown) => {
  console.error(JSON.stringify({ level: 'error', message: 'npm start failed', error: (error as Error).message, stack: (error as Error).stack }));
  process.exit(1);
});
