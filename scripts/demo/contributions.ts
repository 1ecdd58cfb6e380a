/**
 * Contribution targets (charities) for GET /v14/contributions/targets: a short curated list, as operators
 * would make it through the same domain call.
 */
import { createContributionTarget, type ContributionTargetInput } from '#shared/domain/pos/contribution-targets.ts';
import type { DemoContext } from './context.ts';

export const DEMO_CONTRIBUTION_TARGETS: readonly ContributionTargetInput[] = [
  {
    name: 'Greater Boston Food Bank',
    description_html: '<p>Fighting hunger in Eastern Massachusetts.</p>',
    featured: true,
    website: 'https://www.gbfb.org/',
    twitter_username: 'gbfb',
  },
  {
    name: 'Cambridge Community Garden Trust',
    description_html: '<p>Keeps neighbourhood gardens growing.</p>',
    minimum_age_required: 18,
    home_address_required: true,
    partner_specific_terms: 'Contributions are pooled and given each quarter.',
  },
];

export async function seedContributions(context: DemoContext): Promise<Record<string, unknown>> {
  const ids: number[] = [];
  for (const input of DEMO_CONTRIBUTION_TARGETS) ids.push((await createContributionTarget(input)).target_id);
  context.progress('contribution targets created', { ids });
  return { contribution_target_ids: ids };
}
