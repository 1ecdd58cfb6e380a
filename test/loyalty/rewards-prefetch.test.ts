/**
 * The rewards at a location (GET /v15/locations/:location_id/rewards and /reward_summary) read the location,
 * keyed by the path alone, beside the token's read (the route's prefetch, shared/http/handler.ts): a refused
 * token still answers only its 401, the same whether the location exists or not; an admitted user and an
 * anonymous caller get what they got before (404 with an empty body for an unknown location); and a prefetch
 * that fails is read again, leaving the answer what it was without one (docs/security.md, "Prefetched reads").
 * The calls per request (4 with a token, 2 without) are test/loyalty/round-trips.test.ts's.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { userFixture } from '../support/fixtures.ts';
import { orderWorld, type OrderWorld } from '../support/money.ts';
import { campaignFixture, uniqueCode } from '../support/loyalty.ts';
import { issueToken } from '#shared/auth/tokens.ts';
import { listLocationRewards, locationRewardSummary, readRewardsLocation } from '#shared/domain/loyalty/rewards.ts';

const api = useTestApi();
let world: OrderWorld;
let userToken: string;

const failedRead = () => Promise.reject(Object.assign(new Error('Rate of requests exceeds the allowed throughput.'), { name: 'ThrottlingException' }));
const paths = (locationId: number | string) => [`/v15/locations/${locationId}/rewards`, `/v15/locations/${locationId}/reward_summary`];

beforeAll(async () => {
  world = await orderWorld();
  userToken = world.user.token;
  const promo = await campaignFixture(world.merchant.merchant.merchant_id, 'value', { cohort_code: uniqueCode('PREFETCH'), value_amount: 200 });
  const claim = await api.call('POST', `/v15/codes/${promo.cohort_code}/claims`, { token: userToken });
  expect(claim.status, claim.text).toBe(200);
});

describe('rewards at a location: the location read beside the token', () => {
  it('answers a refused token its 401 alone, the same for a location that exists, one that does not and a path that names none', async () => {
    const appToken = await issueToken({ subject: 'app', appId: world.app.app_id });
    const revealing = [world.location.name, world.merchant.merchant.name, String(world.merchant.merchant.merchant_id)].filter(
      (text) => typeof text === 'string' && text.length > 2,
    ) as string[];
    for (const authorization of [`token ${'f'.repeat(64)}`, `token merchant="${world.merchant.token}"`, `token ${appToken}`]) {
      for (const [index, path] of paths(world.location.location_id).entries()) {
        const answer = await api.call('GET', path, { authorization });
        expect(answer.status, answer.text).toBe(401);
        expect(answer.body).toEqual([{ error: expect.objectContaining({ object: 'access_token', property: 'base', code: 'not_authorized' }) }]);
        for (const text of revealing) expect(answer.text).not.toContain(text);
        for (const other of [paths(987_654_321)[index]!, paths('abc')[index]!]) {
          const unknown = await api.call('GET', other, { authorization });
          expect({ status: unknown.status, text: unknown.text }).toEqual({ status: answer.status, text: answer.text });
        }
      }
    }
  });

  it('answers an unknown location 404 with an empty body, with a user token or none, and the known one 200', async () => {
    for (const path of [...paths(987_654_321), ...paths('abc')]) {
      for (const token of [userToken, undefined]) {
        const answer = await api.call('GET', path, { token });
        expect(answer.status, answer.text).toBe(404);
        expect(answer.text).toBe('');
      }
    }
    const [list, summary] = paths(world.location.location_id);
    const held = await api.call('GET', list!, { token: userToken });
    expect(held.status, held.text).toBe(200);
    expect(held.body.filter((entry: { reward: { id: string } }) => entry.reward.id.startsWith('claim-'))).toHaveLength(1);
    expect((await api.call('GET', summary!, { token: userToken })).body).toEqual({
      reward_summary: { credit_amount: 200, reward_count: 1, usable_as_credit_reward_count: 1 },
    });
  });

  it('reads the location itself when the prefetch failed, and answers as without one', async () => {
    const locationId = world.location.location_id;
    const userId = (await userFixture(world.app.app_id)).user.user_id;
    for (const holder of [world.user.user.user_id, userId, undefined]) {
      const without = await listLocationRewards(locationId, holder, { transferSupported: false });
      expect(await listLocationRewards(locationId, holder, { transferSupported: false }, failedRead())).toEqual(without);
      expect(await listLocationRewards(locationId, holder, { transferSupported: false }, readRewardsLocation(locationId))).toEqual(without);
      const summary = await locationRewardSummary(locationId, holder, false);
      expect(await locationRewardSummary(locationId, holder, false, failedRead())).toEqual(summary);
      expect(await locationRewardSummary(locationId, holder, false, readRewardsLocation(locationId))).toEqual(summary);
    }
    expect(await listLocationRewards(locationId, world.user.user.user_id, { transferSupported: false })).not.toEqual([]);
    // An unknown location is the same 404 whether the prefetch found nothing or failed.
    for (const prefetch of [() => readRewardsLocation(987_654_321), failedRead, () => undefined]) {
      await expect(listLocationRewards(987_654_321, world.user.user.user_id, { transferSupported: false }, prefetch())).rejects.toMatchObject({
        status: 404,
        details: null,
      });
    }
  });
});
