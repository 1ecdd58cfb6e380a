import { beforeAll, describe, expect, it } from 'vitest';
import { issueToken, resolveCredentials } from '#shared/auth/tokens.ts';
import { parseAuthorization } from '#shared/auth/header.ts';
import { useTestApi } from '../support/api.ts';
import { appFixture, userFixture } from '../support/fixtures.ts';

/**
 * The token read tells the request pipeline when it leaves for DynamoDB (shared/auth/tokens.ts, OnReadSent):
 * the pipeline validates the request's inputs from then on, while DynamoDB answers (shared/http/handler.ts).
 */
useTestApi();
let userToken: string;
let appToken: string;
beforeAll(async () => {
  const { app } = await appFixture();
  userToken = (await userFixture(app.app_id)).token;
  appToken = await issueToken({ subject: 'app', appId: app.app_id });
});

async function resolveNoting(header: string) {
  const events: string[] = [];
  const resolving = resolveCredentials(parseAuthorization(header)!, () => events.push('sent'));
  events.push('returned');
  const credentials = await resolving;
  events.push('resolved');
  return { credentials, events };
}

describe('the token read', () => {
  it('says once that its GetItem has left, before it resolves, and resolves as without it', async () => {
    const { credentials, events } = await resolveNoting(`token ${userToken}`);
    expect(events).toEqual(['returned', 'sent', 'resolved']);
    expect(credentials?.user?.kind).toBe('user');
    expect(await resolveCredentials(parseAuthorization(`token ${userToken}`)!)).toEqual(credentials);
  });

  it('says so for an unknown token too (the read leaves all the same)', async () => {
    const { credentials, events } = await resolveNoting(`token ${'f'.repeat(64)}`);
    expect(events).toEqual(['returned', 'sent', 'resolved']);
    expect(credentials).toBeUndefined();
  });

  it('says so once for two tokens read together (one BatchGetItem)', async () => {
    const { credentials, events } = await resolveNoting(`token ${userToken}, ${appToken}`);
    expect(events.filter((event) => event === 'sent')).toHaveLength(1);
    expect(events.at(-1)).toBe('resolved');
    expect(Object.keys(credentials ?? {}).sort()).toEqual(['app', 'user']);
  });
});
