/**
 * keepPerProcessWorkOnce (shared/env.ts): what the AWS SDK clients (DynamoDB, Step Functions) would rebuild on
 * every call is built once per process, and a failure is not remembered (issue 19).
 */
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { keepPerProcessWorkOnce } from '#shared/env.ts';

type Scheme = { name: string; signingRegion: string; signingName: string };

function fakeClient(options: { failFirstSigner?: boolean } = {}) {
  const built = { signers: 0, userAgents: 0, otherBodies: 0 };
  const config = {
    signer: async (scheme?: Scheme) => {
      built.signers += 1;
      if (options.failFirstSigner && built.signers === 1) throw new Error('credentials not resolvable yet');
      return { scheme: scheme?.signingName, serial: built.signers };
    },
    streamCollector: async (_body: unknown) => {
      built.otherBodies += 1;
      return new Uint8Array([42]);
    },
    defaultUserAgentProvider: async () => {
      built.userAgents += 1;
      return [['aws-sdk-js', '3']] as [string, string][];
    },
  };
  const client = { config };
  keepPerProcessWorkOnce(client);
  return { config, built };
}

const dynamodb: Scheme = { name: 'sigv4', signingRegion: 'us-east-1', signingName: 'dynamodb' };
const states: Scheme = { name: 'sigv4', signingRegion: 'us-east-1', signingName: 'states' };

describe('keepPerProcessWorkOnce: an SDK client builds its per-process parts once', () => {
  it('makes one signer per auth scheme and hands the same one to every call', async () => {
    const { config, built } = fakeClient();
    const first = await config.signer(dynamodb);
    expect(await config.signer(dynamodb)).toBe(first);
    expect(await config.signer(states)).not.toBe(first);
    expect(built.signers).toBe(2);
  });

  it('does not remember a signer whose construction failed: the next call builds it again', async () => {
    const { config, built } = fakeClient({ failFirstSigner: true });
    await expect(config.signer(dynamodb)).rejects.toThrow('credentials not resolvable yet');
    const signer = await config.signer(dynamodb);
    expect(signer.serial).toBe(2);
    expect(await config.signer(dynamodb)).toBe(signer);
    expect(built.signers).toBe(2);
  });

  it('builds the user agent sections once', async () => {
    const { config, built } = fakeClient();
    const sections = await config.defaultUserAgentProvider();
    expect(await config.defaultUserAgentProvider()).toBe(sections);
    expect(built.userAgents).toBe(1);
  });

  it('reads a Node response body to its bytes, in one chunk or many, and hands other bodies to the SDK', async () => {
    const { config, built } = fakeClient();
    expect(Buffer.from(await config.streamCollector(Readable.from([Buffer.from('{"a":1}')]))).toString()).toBe('{"a":1}');
    expect(Buffer.from(await config.streamCollector(Readable.from([Buffer.from('{"a"'), Buffer.from(':1}')]))).toString()).toBe('{"a":1}');
    expect(built.otherBodies).toBe(0);
    expect(await config.streamCollector(new Blob(['x']))).toEqual(new Uint8Array([42]));
    expect(built.otherBodies).toBe(1);
  });

  it('rejects a body cut short (closed before its end) instead of waiting for the socket timeout', async () => {
    const { config } = fakeClient();
    const body = new PassThrough();
    const reading = config.streamCollector(body);
    body.write('{"a"');
    body.destroy();
    await expect(reading).rejects.toMatchObject({ code: 'ECONNRESET' });
  });
});
