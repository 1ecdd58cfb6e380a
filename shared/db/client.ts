import { Readable } from 'node:stream';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { awsClientConfig, requireEnv } from '#shared/env.ts';
import { dbStatsEnabled, instrumentClient } from '#shared/db/stats.ts';
import { injectFaults } from '#shared/db/faults.ts';

/**
 * One document client per process (module scope, reused across Lambda invocations).
 * DYNAMODB_ENDPOINT points it at DynamoDB Local; unset in AWS.
 */
function createDocumentClient(): DynamoDBDocumentClient {
  const client = new DynamoDBClient(awsClientConfig('DYNAMODB_ENDPOINT'));
  // The SDK's logger middleware builds a redacted copy of every call's input and output for its
  // logger even when that logger discards it (the default): CPU on every call for nothing.
  client.middlewareStack.remove('loggerMiddleware');
  keepPerProcessWorkOnce(client);
  if (dbStatsEnabled()) instrumentClient(client);
  // Reliability tests only (test/faults, docs/reliability.md): DYNAMODB_FAULTS is never set in AWS.
  // Deployed bundles define DYNAMODB_FAULTS as undefined (API_FUNCTION_BUNDLING): this line is dead code
  // there and faults.ts is not in the bundle, so no setting can turn fault injection on in AWS.
  if (process.env.DYNAMODB_FAULTS) injectFaults(client);
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
}

/**
 * Two things the SDK rebuilds on every call though they cannot change within a process (issue 19):
 * - the SigV4 signer: the default `signer` makes a new SignatureV4 from a copy of the whole client
 *   configuration per request. The signer holds no per-request state (each `sign` reads the credentials
 *   provider, which refreshes them, and is given the request's region and service), so one per auth
 *   scheme signs exactly as before;
 * - the user agent's fixed sections (SDK version, `os/` with an `os.release()` system call, runtime,
 *   `exec-env/`): the middleware copies them before adding the call's own feature list, so sharing them
 *   changes no header.
 */
function keepPerProcessWorkOnce(client: DynamoDBClient): void {
  const config = client.config;
  const makeSigner = config.signer;
  const signers = new Map<string, ReturnType<typeof makeSigner>>();
  config.signer = (authScheme) => {
    const key = `${authScheme?.name}|${authScheme?.signingRegion}|${authScheme?.signingName}`;
    let signer = signers.get(key);
    if (!signer) {
      signer = makeSigner(authScheme);
      // A failed construction (credentials not resolvable yet) is not remembered.
      signer.catch(() => signers.delete(key));
      signers.set(key, signer);
    }
    return signer;
  };
  const collectOtherBody = config.streamCollector;
  config.streamCollector = (body) => (body instanceof Readable ? collectResponseBody(body) : collectOtherBody(body));
  const userAgentSections = config.defaultUserAgentProvider;
  let sections: ReturnType<typeof userAgentSections> | undefined;
  config.defaultUserAgentProvider = () => {
    if (!sections) {
      sections = userAgentSections();
      sections.catch(() => (sections = undefined));
    }
    return sections;
  };
}

/**
 * A response body's bytes, read with plain listeners: the SDK's default collector pipes the response into
 * a Writable built per call, several times the CPU for DynamoDB's small bodies. A response cut short
 * rejects (as the default would on the stream's error) instead of waiting for the socket timeout.
 */
function collectResponseBody(body: Readable): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let ended = false;
    body.on('data', (chunk: Buffer) => chunks.push(chunk));
    body.once('end', () => {
      ended = true;
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    });
    body.once('error', reject);
    body.once('close', () => {
      if (!ended) reject(Object.assign(new Error('The response closed before its body was complete'), { code: 'ECONNRESET' }));
    });
  });
}

let documentClient: DynamoDBDocumentClient | undefined;
let tableName: string | undefined;

export function db(): DynamoDBDocumentClient {
  documentClient ??= createDocumentClient();
  return documentClient;
}

export function table(): string {
  tableName ??= requireEnv('TABLE_NAME');
  return tableName;
}

/** True when a DynamoDB call failed because its condition (or a transaction's) did not hold. */
export function isConditionFailure(error: unknown): boolean {
  const name = (error as { name?: string } | null)?.name;
  return name === 'ConditionalCheckFailedException' || name === 'TransactionCanceledException';
}

/** Reasons of a cancelled transaction, one per item, in request order (`None` where that item was fine). */
export function cancellationReasons(error: unknown): string[] {
  const reasons = (error as { CancellationReasons?: { Code?: string }[] } | null)?.CancellationReasons;
  return reasons?.map((reason) => reason.Code ?? 'None') ?? [];
}
