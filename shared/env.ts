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
