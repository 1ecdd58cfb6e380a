import * as z from '#shared/schemas/zod.ts';

/** PUT /v15/merchants/:merchant_id/rewards/:claim_id (and the location path): pause or unpause. */
export const rewardPauseBody = z.object({ reward: z.object({ paused: z.boolean() }) });
