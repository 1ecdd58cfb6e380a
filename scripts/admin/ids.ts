/**
 * Id counter commands of `npm run admin` (registered in scripts/admin.ts):
 * - shard-id-counters: once, before the sharded id code serves a table that has ids from the single
 *   counters (docs/scale.md "Id counters"), start every counter shard above them.
 */
import type { AdminCommand } from './options.ts';
import { raiseShardsAboveLegacyCounters } from '#shared/db/ids.ts';

export const shardIdCountersCommand: AdminCommand = {
  summary: 'Start every id counter shard above the single counter it replaces (run before deploying sharded ids to a table with data; idempotent).',
  run: async () => ({ raised: await raiseShardsAboveLegacyCounters() }),
};
