import { describe, expect, it } from 'vitest';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#shared/db/client.ts';
import { addCredit, auditLedger, balanceChangeItems, creditAccountKey, getBalance } from '#shared/domain/money/ledger.ts';
import { useTestApi } from '../support/api.ts';

// Starts the local table the balance writes below go to.
useTestApi();

const apply = (account: string, movements: Parameters<typeof balanceChangeItems>[1]) =>
  db().send(new TransactWriteCommand({ TransactItems: balanceChangeItems(account, movements) }));

describe('balance guard', () => {
  it('checks the net change, so a refund that restores a discount and reverses earned credit goes through on a low balance', async () => {
    const account = creditAccountKey(901, 1);
    await addCredit({ userId: 901, merchantId: 1, amount: 100, entryId: 'earn:1' });
    await apply(account, [
      { kind: 'credit_restored', amount: 500, entryId: 'refund:1:restore' },
      { kind: 'credit_reversed', amount: -300, entryId: 'refund:1:reverse' },
    ]);
    expect((await getBalance(account)).balance).toBe(300);
  });

  it('refuses a net debit larger than the balance and changes nothing', async () => {
    const account = creditAccountKey(902, 1);
    await addCredit({ userId: 902, merchantId: 1, amount: 100, entryId: 'earn:2' });
    await expect(
      apply(account, [
        { kind: 'credit_restored', amount: 50, entryId: 'refund:2:restore' },
        { kind: 'credit_reversed', amount: -200, entryId: 'refund:2:reverse' },
      ]),
    ).rejects.toMatchObject({ name: 'TransactionCanceledException' });
    expect((await getBalance(account)).balance).toBe(100);
    const audit = await auditLedger();
    expect(audit.mismatches).toEqual([]);
  });
});
