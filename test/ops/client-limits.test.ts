/**
 * Issue 12, point 4: no single caller can starve another. 40 anonymous clients loop on the API for
 * 4 s from one address while an authenticated client keeps working: the anonymous ones exhaust their
 * address's bucket (429 with Retry-After) and never reach the stage's shared one, so every
 * authenticated request is answered 200. Loopback only, bounded in time and count.
 */
import { Agent, request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { appFixture, userFixture } from '../support/fixtures.ts';
import { API_THROTTLING, CLIENT_LIMITS } from '#shared/throttling.ts';

const ANONYMOUS_CLIENTS = 40;
/** The anonymous loops run at least this long, and until the authenticated client is done. */
const DURATION_MS = 4_000;
/** Bound on the whole run, however slow the machine. */
const HARD_DEADLINE_MS = 30_000;
/** The authenticated client's requests, paced well inside its own credential's limit. */
const AUTHENTICATED_REQUESTS = 10;
const AUTHENTICATED_PAUSE_MS = 50;

const api = useTestApi();

function get(agent: Agent, url: string): Promise<{ status: number; retryAfter?: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { agent, method: 'GET', headers: { accept: 'application/json' } }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, retryAfter: response.headers['retry-after'] }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe('per-client limits through the local gateway', () => {
  it('40 anonymous looping clients cannot starve an authenticated one', async () => {
    const { app } = await appFixture();
    const { token } = await userFixture(app.app_id);
    const startedAt = Date.now();
    let authenticatedDone = false;
    const keepLooping = () => (!authenticatedDone || Date.now() < startedAt + DURATION_MS) && Date.now() < startedAt + HARD_DEADLINE_MS;

    const agent = new Agent({ keepAlive: true, maxSockets: ANONYMOUS_CLIENTS });
    const anonymous: { status: number; retryAfter?: string }[] = [];
    const loop = async () => {
      while (keepLooping()) anonymous.push(await get(agent, `${api.baseUrl}/v15/no-such-route`));
    };

    const authenticated: number[] = [];
    const authenticatedClient = async () => {
      // Starts once the anonymous flood is on.
      await sleep(AUTHENTICATED_PAUSE_MS);
      for (let request = 0; request < AUTHENTICATED_REQUESTS && Date.now() < startedAt + HARD_DEADLINE_MS; request++) {
        authenticated.push((await api.call('GET', '/v15/users', { token })).status);
        await sleep(AUTHENTICATED_PAUSE_MS);
      }
      authenticatedDone = true;
    };

    try {
      await Promise.all([...Array.from({ length: ANONYMOUS_CLIENTS }, loop), authenticatedClient()]);
    } finally {
      agent.destroy();
    }

    expect(authenticated).toEqual(Array.from({ length: AUTHENTICATED_REQUESTS }, () => 200));

    const admitted = anonymous.filter((response) => response.status === 404).length;
    const refused = anonymous.filter((response) => response.status === 429);
    expect(admitted + refused.length).toBe(anonymous.length);
    expect(refused.length).toBeGreaterThan(0);
    for (const response of refused) expect(Number(response.retryAfter)).toBeGreaterThanOrEqual(1);
    // The anonymous address got at most its own bucket (burst + refill), far below the stage's share.
    const anonymousLimit = CLIENT_LIMITS.perAddressAnonymous;
    const seconds = (Date.now() - startedAt) / 1000 + 1;
    expect(admitted).toBeLessThanOrEqual(anonymousLimit.burst + anonymousLimit.ratePerSecond * seconds);
    expect(anonymousLimit.ratePerSecond + CLIENT_LIMITS.perAddressCredentialed.ratePerSecond).toBeLessThan(API_THROTTLING.rateLimit);
  });
});
