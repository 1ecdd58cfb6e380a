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
