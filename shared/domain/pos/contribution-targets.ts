/**
 * Contribution targets (charities) a user may give to: LevelUp's C# SDK v2 lists them
 * (GET /v14/contributions/targets) and shows one (GET /v14/contributions/targets/:id), without a token.
 * Operators create them (the demo seeds a few); users' orders name the target of a contribution they carry
 * (`contribution_target_name`). docs/pos.md says what is and is not modelled.
 */
import { firstOfIndex } from '#shared/db/reads.ts';
import * as z from '#shared/schemas/zod.ts';
import { defineEntity } from '#shared/db/entity.ts';
import { nextId } from '#shared/db/ids.ts';
import { keys } from '#shared/db/keys.ts';
import { createItem } from '#shared/db/transactions.ts';
import { isoSeconds } from '#shared/time.ts';

/** Targets a list answers at most: operators curate a short list; the list is not paged (CS2 reads one array). */
export const MAX_CONTRIBUTION_TARGETS = 100;

const optionalUrl = z._default(z.nullable(z.string().check(z.url(), z.maxLength(500))), null);

/** What createContributionTarget accepts; optional fields have the default a new target gets. */
export const contributionTargetInputSchema = z.object({
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(255)),
  description_html: z._default(z.string().check(z.maxLength(5000)), ''),
  employer_required: z._default(z.boolean(), false),
  facebook_url: optionalUrl,
  featured: z._default(z.boolean(), false),
  home_address_required: z._default(z.boolean(), false),
  minimum_age_required: z._default(z.nullable(z.number().check(z.int(), z.gte(0), z.lte(120))), null),
  partner_specific_terms: z._default(z.nullable(z.string().check(z.maxLength(5000))), null),
  twitter_username: z._default(z.nullable(z.string().check(z.maxLength(64))), null),
  website: optionalUrl,
});

export type ContributionTargetInput = z.input<typeof contributionTargetInputSchema>;
export type ContributionTargetItem = z.output<typeof contributionTargetInputSchema> & { target_id: number; created_at: string; updated_at: string };

/** A target, listed in the gsi2 partition of every target (keys.contributionTargetsIndex). */
export const ContributionTarget = defineEntity<ContributionTargetItem & { gsi2pk: string; gsi2sk: string }>()({
  entity: 'ContributionTarget',
  key: keys.contributionTarget,
});

export async function createContributionTarget(input: ContributionTargetInput): Promise<ContributionTargetItem> {
  const parsed = contributionTargetInputSchema.parse(input);
  const targetId = await nextId('contribution_target');
  const now = isoSeconds();
  const target: ContributionTargetItem = { target_id: targetId, ...parsed, created_at: now, updated_at: now };
  if (!(await createItem({ ...ContributionTarget.at(targetId).item({ ...keys.contributionTargetsIndex(targetId), ...target }) }))) {
    throw new Error(`contribution target ${targetId} already exists`);
  }
  return target;
}

export async function getContributionTarget(targetId: number): Promise<ContributionTargetItem | undefined> {
  return ContributionTarget.at(targetId).get({ consistent: false });
}

/** Every target in id order, at most MAX_CONTRIBUTION_TARGETS (one Query). */
export async function listContributionTargets(): Promise<ContributionTargetItem[]> {
  const { gsi2pk, skPrefix } = keys.contributionTargets();
  const items = await firstOfIndex('gsi2', { pk: gsi2pk, skPrefix }, 'oldest-first', MAX_CONTRIBUTION_TARGETS);
  return items.flatMap((item) => ContributionTarget.from(item) ?? []);
}

/** `{"contribution_target": {...}}` with the fields LevelUp's C# SDK reads; its `id` is a string there. */
export function serializeContributionTarget(target: ContributionTargetItem) {
  return {
    contribution_target: {
      description_html: target.description_html,
      employer_required: target.employer_required,
      facebook_url: target.facebook_url,
      featured: target.featured,
      home_address_required: target.home_address_required,
      id: String(target.target_id),
      minimum_age_required: target.minimum_age_required,
      name: target.name,
      partner_specific_terms: target.partner_specific_terms,
      twitter_username: target.twitter_username,
      website: target.website,
    },
  };
}
