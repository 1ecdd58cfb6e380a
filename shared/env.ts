import { Readable } from 'node:stream';

/** Reads a required environment variable once; a missing one is a deployment error, so it throws. */
export function requireEnv(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`Environment variable ${name} is not set`);
  return value;
}

export function optionalEnv(name: string): string | undefined {
  const value = process.env[name];
  return value === undefined || value === '' ? undefined : value;
}

/**
 * An AWS SDK client's settings for one service: in AWS, the defaults (region and credentials from the Lambda's
 * environment); with `endpointVariable` set, that local emulator (DynamoDB Local, the SES v2 emulator, the local
 * workflow service), which accepts any credentials.
 */
export function awsClientConfig(endpointVariable: string): AwsClientConfig {
  return awsClientConfigFor(optionalEnv(endpointVariable));
}

type AwsClientConfig = { endpoint?: string; region?: string; credentials?: { accessKeyId: string; secretAccessKey: string } };

/** The same settings for an endpoint already known (the bench reaches the gateway's workflow service by the address it reported). */
export function awsClientConfigFor(endpoint: string | undefined): AwsClientConfig {
  return endpoint ? { endpoint, region: optionalEnv('AWS_REGION') ?? 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {};
}

/** The parts of an AWS SDK client's resolved configuration that keepPerProcessWorkOnce replaces. */
interface PerCallConfig<Scheme extends { name?: string; signingRegion?: string; signingName?: string }, Signer, UserAgent> {
  signer: (authScheme?: Scheme) => Promise<Signer>;
  streamCollector: (body: unknown) => Promise<Uint8Array>;
  defaultUserAgentProvider: () => Promise<UserAgent>;
}

/**
 * What an AWS SDK client rebuilds on every call though it cannot change within a process (issue 19), kept once
 * per client (the DynamoDB client, shared/db/client.ts; the Step Functions client, shared/workflows/executions.ts):
 * - the SigV4 signer: the default `signer` makes a new SignatureV4 from a copy of the whole client
 *   configuration per request. The signer holds no per-request state (each `sign` reads the credentials
 *   provider, which refreshes them, and is given the request's region and service), so one per auth
 *   scheme signs exactly as before;
 * - the user agent's fixed sections (SDK version, `os/` with an `os.release()` system call, runtime,
 *   `exec-env/`): the middleware copies them before adding the call's own feature list, so sharing them
 *   changes no header;
 * - the response body's collector: the default pipes the response into a Writable built per call, several
 *   times the CPU for small bodies; collectResponseBody reads the same bytes with plain listeners.
 */
export function keepPerProcessWorkOnce<Scheme extends { name?: string; signingRegion?: string; signingName?: string }, Signer, UserAgent>(client: {
  config: PerCallConfig<Scheme, Signer, UserAgent>;
}): void {
  const config = client.config;
  const makeSigner = config.signer;
  const signers = new Map<string, Promise<Signer>>();
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
  let sections: Promise<UserAgent> | undefined;
  config.defaultUserAgentProvider = () => {
    if (!sections) {
      sections = userAgentSections();
      sections.catch(() => (sections = undefined));
    }
    return sections;
  };
}

/**
 * A response body's bytes, read with plain listeners. A response cut short rejects (as the default would on
 * the stream's error) instead of waiting for the socket timeout.
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

/**
 * An AWS SDK package (or what is built from it) loaded on first use, not at import: the packages other than
 * DynamoDB's cost a cold start 15-100 ms of import CPU each (issue 19; bench/notes.md, "every SDK client other
 * than DynamoDB's loaded on first use"), and most requests of the functions that hold them never call them.
 * Write the package's dynamic import literally in `load`: esbuild then keeps the package external and dynamic.
 * The promise is kept, so a process loads once however many requests ask at the same time; a failed load is
 * tried again by the next use, not remembered for the life of the process.
 */
export function loadedOnFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    if (!loading) {
      loading = load();
      loading.catch(() => {
        loading = undefined;
      });
    }
    return loading;
  };
}
