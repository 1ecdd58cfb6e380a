/**
 * The SNS mobile push adapter (shared/push/sns.ts) against a stand-in for SNS's query API on loopback (the same
 * client, pointed at it by SNS_ENDPOINT): the endpoint of a device's token is made, the APNs payload published
 * under the device's environment; a disabled endpoint is enabled and tried once more; a token SNS refuses, or an
 * endpoint that stays disabled, is unreachable; an endpoint that exists with other attributes is used; an
 * unconfigured environment sends nothing.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SnsPushSender } from '#shared/push/sns.ts';
import type { PushMessage, PushTarget } from '#shared/push/sender.ts';

const APNS = 'arn:aws:sns:us-east-1:123456789012:app/APNS/loyalty-ios';
const ENDPOINT = 'arn:aws:sns:us-east-1:123456789012:endpoint/APNS/loyalty-ios/0b1f7c55-0000-4000-8000-000000000001';

let server: Server;
let calls: Record<string, string>[] = [];
/** What the stand-in answers each action with: an error code, or success. */
let failures: Record<string, string[]> = {};

const xmlError = (code: string, message: string) =>
  `<ErrorResponse><Error><Type>Sender</Type><Code>${code}</Code><Message>${message}</Message></Error><RequestId>r</RequestId></ErrorResponse>`;
const xmlOk = (action: string, result: string) =>
  `<${action}Response><${action}Result>${result}</${action}Result><ResponseMetadata><RequestId>r</RequestId></ResponseMetadata></${action}Response>`;

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const params = Object.fromEntries(new URLSearchParams(body));
      calls.push(params);
      const action = params.Action!;
      const failure = failures[action]?.shift();
      if (failure) {
        const messages: Record<string, [string, string]> = {
          InvalidParameter: ['InvalidParameter', 'Invalid parameter: Token Reason: not a token'],
          EndpointExists: [
            'InvalidParameter',
            `Invalid parameter: Token Reason: Endpoint ${ENDPOINT} already exists with the same Token, but different attributes.`,
          ],
        };
        const [code, text] = messages[failure] ?? [failure, 'refused'];
        response.writeHead(400, { 'Content-Type': 'text/xml' }).end(xmlError(code, text));
        return;
      }
      const result = action === 'CreatePlatformEndpoint' ? `<EndpointArn>${ENDPOINT}</EndpointArn>` : action === 'Publish' ? '<MessageId>m-1</MessageId>' : '';
      response.writeHead(200, { 'Content-Type': 'text/xml' }).end(xmlOk(action, result));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.env.SNS_ENDPOINT = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.AWS_REGION ??= 'us-east-1';
  process.env.PUSH_APNS_PLATFORM_APPLICATION_ARN = APNS;
});

afterAll(async () => {
  delete process.env.SNS_ENDPOINT;
  delete process.env.PUSH_APNS_PLATFORM_APPLICATION_ARN;
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  calls = [];
  failures = {};
});

const target: PushTarget = { platform: 'apns', token: 'AB'.repeat(32), appId: 1, userId: 2 };
const message: PushMessage = {
  notificationId: 'reward.earned:r-1',
  kind: 'reward.earned',
  title: 'Coffee Co',
  body: 'You earned $1.50 credit!',
  data: { reward_id: 'r-1', merchant_id: 7 },
};

describe('SNS mobile push', () => {
  it("makes the token's endpoint on the APNS application and publishes the APNs payload to it", async () => {
    expect(await new SnsPushSender().send(target, message)).toBe('sent');
    expect(calls.map((call) => call.Action)).toEqual(['CreatePlatformEndpoint', 'Publish']);
    expect(calls[0]).toMatchObject({ PlatformApplicationArn: APNS, Token: target.token });
    expect(calls[1]).toMatchObject({ TargetArn: ENDPOINT, MessageStructure: 'json' });
    const published = JSON.parse(calls[1]!.Message!);
    expect(published.default).toBe(message.body);
    expect(JSON.parse(published.APNS)).toEqual({
      aps: { alert: { title: 'Coffee Co', body: 'You earned $1.50 credit!' }, sound: 'default' },
      kind: 'reward.earned',
      reward_id: 'r-1',
      merchant_id: 7,
    });
  });

  it('enables a disabled endpoint and tries once more; one that stays disabled is deleted and unreachable', async () => {
    failures = { Publish: ['EndpointDisabled'] };
    expect(await new SnsPushSender().send(target, message)).toBe('sent');
    expect(calls.map((call) => call.Action)).toEqual(['CreatePlatformEndpoint', 'Publish', 'SetEndpointAttributes', 'Publish']);
    expect(calls[2]).toMatchObject({ EndpointArn: ENDPOINT, 'Attributes.entry.1.key': 'Enabled', 'Attributes.entry.1.value': 'true' });
    calls = [];
    failures = { Publish: ['EndpointDisabled', 'EndpointDisabled'] };
    expect(await new SnsPushSender().send(target, message)).toBe('unreachable');
    expect(calls.map((call) => call.Action)).toEqual(['CreatePlatformEndpoint', 'Publish', 'SetEndpointAttributes', 'Publish', 'DeleteEndpoint']);
  });

  it('calls a token SNS refuses unreachable, throws on anything else (the batch is retried), and sends nothing for an unconfigured environment', async () => {
    failures = { CreatePlatformEndpoint: ['InvalidParameter'] };
    expect(await new SnsPushSender().send(target, message)).toBe('unreachable');
    // The token's endpoint exists with other attributes: SNS names it, and it is used.
    calls = [];
    failures = { CreatePlatformEndpoint: ['EndpointExists'] };
    expect(await new SnsPushSender().send(target, message)).toBe('sent');
    expect(calls.map((call) => call.Action)).toEqual(['CreatePlatformEndpoint', 'Publish']);
    expect(calls[1]).toMatchObject({ TargetArn: ENDPOINT });
    failures = { Publish: ['AuthorizationError'] };
    await expect(new SnsPushSender().send(target, message)).rejects.toThrow();
    calls = [];
    expect(await new SnsPushSender().send({ ...target, platform: 'apns_sandbox' }, message)).toBe('sent');
    expect(calls).toEqual([]);
  });
});
