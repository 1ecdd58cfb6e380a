import * as z from '#shared/schemas/zod.ts';
import { apiHandler, ok, requireUser } from '#shared/http/handler.ts';
import { claimLegacyCard, LEGACY_NOT_FOUND } from '#shared/domain/loyalty/claims.ts';

/**
 * POST /v15/loyalties/legacy/{campaign_id}/claims: migrates a legacy loyalty card. The path's campaign
 * id does not select the campaign (the app's legacy campaign does), so any value is accepted.
 * legacy_id arrives as a string (iOS, Android) or an integer (old docs); both name the same card.
 */
const body = z.object({
  legacy_loyalty: z.object({
    legacy_id: z.union([z.string().check(z.trim(), z.minLength(1), z.maxLength(200)), z.pipe(z.number().check(z.int(), z.nonnegative()), z.transform(String))]),
  }),
});

export const handler = apiHandler(
  'legacy-loyalty-claims-create',
  { notFound: LEGACY_NOT_FOUND, summary: 'Claim a legacy loyalty campaign', body, bodyObject: 'legacy_loyalty' },
  async (request) => {
    const user = requireUser(request);
    return ok(await claimLegacyCard({ userId: user.userId, appId: user.appId }, request.body.legacy_loyalty.legacy_id));
  },
);
