/**
 * Contribution targets (reference P20-P21, docs/pos.md): LevelUp's C# SDK v2 lists and shows them without a
 * token and reads the fields below (its `id` is a string). No payload file exists; the field list is the SDK's model.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createContributionTarget, type ContributionTargetItem } from '#shared/domain/pos/contribution-targets.ts';
import { DEMO_CONTRIBUTION_TARGETS } from '../../scripts/demo/contributions.ts';
import { useTestApi } from '../support/api.ts';
import { orderWorld, placeOrder } from '../support/money.ts';

const api = useTestApi();
const targets: ContributionTargetItem[] = [];

/** The fields LevelUp's C# SDK v2 maps (ContributionTargetContainer). */
const SDK_FIELDS = [
  'description_html',
  'employer_required',
  'facebook_url',
  'featured',
  'home_address_required',
  'id',
  'minimum_age_required',
  'name',
  'partner_specific_terms',
  'twitter_username',
  'website',
];

beforeAll(async () => {
  for (const input of DEMO_CONTRIBUTION_TARGETS) targets.push(await createContributionTarget(input));
});

describe('GET /v14/contributions/targets and /v14/contributions/targets/:id', () => {
  it('lists every target in id order with the fields the C# SDK reads, id as a string, without a token', async () => {
    const response = await api.call('GET', '/v14/contributions/targets');
    expect(response.status, response.text).toBe(200);
    expect(response.body.map((entry: any) => entry.contribution_target.id)).toEqual(targets.map((target) => String(target.target_id)));
    for (const entry of response.body) expect(Object.keys(entry.contribution_target).sort()).toEqual(SDK_FIELDS);
    expect(response.body[0].contribution_target).toEqual({
      description_html: '<p>Fighting hunger in Eastern Massachusetts.</p>',
      employer_required: false,
      facebook_url: null,
      featured: true,
      home_address_required: false,
      id: String(targets[0]!.target_id),
      minimum_age_required: null,
      name: 'Greater Boston Food Bank',
      partner_specific_terms: null,
      twitter_username: 'gbfb',
      website: 'https://www.gbfb.org/',
    });
  });

  it('shows one target wrapped as the list does; an unknown id is 404 with no body', async () => {
    const second = targets[1]!;
    const response = await api.call('GET', `/v14/contributions/targets/${second.target_id}`, { authorization: 'token ignored' });
    expect(response.status).toBe(200);
    expect(response.body.contribution_target).toMatchObject({
      id: String(second.target_id),
      name: second.name,
      minimum_age_required: 18,
      home_address_required: true,
    });
    for (const path of ['/v14/contributions/targets/999999999', '/v14/contributions/targets/abc']) {
      const missing = await api.call('GET', path);
      expect(missing.status).toBe(404);
      expect(missing.text).toBe('');
    }
  });

  it('user orders carry no contribution: no user has chosen a target (cause_id is null), so amount 0 and name null', async () => {
    const world = await orderWorld();
    const placed = await placeOrder(api, world);
    const order = await api.call('GET', `/v15/orders/${placed.body.order.uuid}`, { token: world.user.token });
    expect(order.body.order).toMatchObject({ contribution_amount: 0, contribution_target_name: null });
    const user = await api.call('GET', '/v15/users', { token: world.user.token });
    expect(user.body.user.cause_id).toBeNull();
  });
});
