/**
 * Money commands of `npm run admin` (registered in scripts/admin.ts):
 * - audit: recomputes every balance from the ledger; prints the report, exits 1 on any mismatch.
 */
import { CommandError, type AdminCommand } from '../admin.ts';
import { auditLedger } from '#shared/domain/ledger.ts';

export const auditCommand: AdminCommand = {
  summary: 'Recompute every balance (gift card value, credit, card charges) from the ledger; exit 1 on a mismatch.',
  usage: '',
  options: {},
  async run() {
    const report = await auditLedger();
    if (report.mismatches.length > 0) {
      console.log(JSON.stringify(report, null, 2));
      throw new CommandError(`${report.mismatches.length} balance(s) do not match the ledger (see the report above)`);
    }
    return report;
  },
};
