import { keys } from '#shared/db/keys.ts';

/** One leg of a ledger entry as the ledger stores it, for tests that write or stream ledger items directly. */
export const ledgerLeg = (account: string, kind: string, contra: string, amount: number, entryId: string) => ({
  ...keys.ledgerEntry(account, entryId),
  entity: 'LedgerEntry',
  account,
  entry_id: entryId,
  kind,
  amount,
  contra_account: contra,
});
