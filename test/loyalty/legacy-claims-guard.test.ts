/**
 * Legacy card claims under enumeration (issue 12, point 8; docs/security.md), through HTTP against the
 * local stack: a record tied to an email is claimable only by the user with that email (a stranger is told
 * it does not exist), and claims that migrate nothing are limited per user (429 + Retry-After).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { LEGACY_CLAIM_FAILURES } from '#shared/domain/rate-limits.ts';
import { useTestApi } from '../support/api.ts';
import { appFixture, merchantFixture, userFixture } from '../support/fixtures.ts';
import { campaignFixture, legacyFixture } from '../support/loyalty.ts';

const api = useTestApi();
let appId: number;
let owner: Awaited<ReturnType<typeof userFixture>>;

const claimLegacy = (token: string, legacyId: string) =>
  api.call('POST', '/v15/loyalties/legacy/1/claims', { token, body: { legacy_loyalty: { legacy_id: legacyId } } });
const NOT_FOUND = [{ error: { object: 'claim', property: 'base', message: 'Loyalty information not found in records' } }];

beforeAll(async () => {
  const { app } = await appFixture();
  appId = app.app_id;
  const merchant = await merchantFixture(appId);
  const spend = await campaignFixture(merchant.merchant.merchant_id, 'spend');
  owner = await userFixture(appId);
  const cards = Array.from({ length: 16 }, (_, index) => ({
    legacy_id: `PUNCH-${995 + index}`,
    value_amount: 100,
    email: index % 2 === 0 ? owner.email.toUpperCase() : null,
  }));
  await legacyFixture(merchant.merchant.merchant_id, appId, spend.campaign_id, [...cards, { legacy_id: 'OPEN-1', value_amount: 100 }]);
});

describe('legacy claims against enumeration', () => {
  it('a new account enumerating PUNCH-995..1010 gets no email-bound card, and is throttled after 10 misses', async () => {
    const stranger = await userFixture(appId);
    const answers = [];
    for (let number = 995; number <= 1010; number++) answers.push(await claimLegacy(stranger.token, `PUNCH-${number}`));
    // Unbound cards (odd positions) may be claimed until the limit; email-bound ones never.
    const migrated = answers.filter((answer) => answer.status === 200).map((answer) => answer.body.claim.value_amount);
    expect(migrated.length).toBeLessThanOrEqual(1);
    for (const [index, answer] of answers.entries()) {
      if (index % 2 === 0) expect([404, 429], answer.text).toContain(answer.status);
      if (answer.status === 404) expect(answer.body).toEqual(NOT_FOUND);
    }
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    for (const answer of refused) {
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(answer.body).toEqual([{ error: expect.objectContaining({ object: 'claim', code: 'rate_limited' }) }]);
    }
    // Throttled: even an existing unbound card is refused now.
    expect((await claimLegacy(stranger.token, 'OPEN-1')).status).toBe(429);

    // The owner claims an email-bound card (the email matches whatever its case).
    const mine = await claimLegacy(owner.token, 'PUNCH-995');
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body.claim.value_amount).toBe(100);
  });

  it(`counts only claims that migrate nothing: ${LEGACY_CLAIM_FAILURES.limit} misses, then 429`, async () => {
    const prober = await userFixture(appId);
    for (let attempt = 0; attempt < LEGACY_CLAIM_FAILURES.limit; attempt++) expect((await claimLegacy(prober.token, `NOPE-${attempt}`)).status).toBe(404);
    const refused = await claimLegacy(prober.token, 'NOPE-X');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Per user: another user is not throttled.
    const other = await userFixture(appId);
    expect((await claimLegacy(other.token, 'OPEN-1')).status).toBe(200);
  });
});
