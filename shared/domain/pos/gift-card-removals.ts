/**
 * Gift card value removals (POST /v15/merchants/:merchant_id/gift_card_value_removals): a POS corrects a
 * load, either by an amount or by reversing one earlier addition by its uuid. Each removal is one
 * conditional transaction: the removal, its ledger entry (`gift_card_removed`), the balance, guarded by
 * the balance's version (so old and new value are exact) and by `balance >= :debit` (never below zero),
 * and the merchant's `gift_card.value_removed` event (docs/events.md).
 *
 * Reversing an addition is idempotent: the reversal record (`keys.giftCardAdditionReversal`) is created
 * with the removal, so of any number of requests reversing one addition exactly one removes value; every
 * other one, concurrent or later, answers that first removal's stored response. It removes the addition's
 * value, or what is left of it when part was already spent (never more than the addition, never more than
 * the balance).
 */
import { defineEntity } from '#shared/db/entity.ts';
import { newUuid } from '#shared/db/ids.ts';
import { keys } from '#shared/db/keys.ts';
import { readItems } from '#shared/db/reads.ts';
import { LabelledItems } from '#shared/db/transactions.ts';
import { backoff, CONTENTION_BACKOFF } from '#shared/db/transient.ts';
import { conflict, notFound, unprocessable } from '#shared/errors.ts';
import { GiftCardAddition, giftCardValueEvent, readGiftCardValue } from '#shared/domain/money/gift-cards.ts';
import { commitKeyedRound, type FirstAnswer } from '#shared/domain/money/idempotency.ts';
import { balanceChangeItems, giftCardAccountKey } from '#shared/domain/money/ledger.ts';
import type { GiftCardValueRemovalRequest } from '#shared/schemas/pos-money.ts';
import { isoSeconds } from '#shared/time.ts';
import { auditEntry, type MerchantOperation } from '#shared/domain/audit/audit-log.ts';
import { optionalApproval } from '#shared/domain/merchants/manager-confirmation.ts';
import { customerFrom, customerKeys } from './customer.ts';

export interface GiftCardRemovalResponse {
  gift_card_value_removal: {
    removed_value_amount: number;
    new_value_at_merchant_amount: number;
    old_value_at_merchant_amount: number;
  };
}

/** A removal of gift card value at the POS (POST /v15/gift_card_value_removals). */
export const GiftCardRemoval = defineEntity<{
  uuid: string;
  merchant_id: number;
  user_id: number;
  value_amount: number;
  /** The addition it reverses, if it names one. */
  addition_uuid: string | null;
  created_at: string;
  /** The staff member who approved it (their manager code or own token); null: nobody named. */
  approved_by_staff_id?: number | null;
}>()({ entity: 'GiftCardRemoval', key: keys.giftCardRemoval });

/** An addition's reversal: at most one per addition, and the first one's answer. */
export const GiftCardAdditionReversal = defineEntity<{ removal_uuid: string } & FirstAnswer>()({
  entity: 'GiftCardAdditionReversal',
  key: keys.giftCardAdditionReversal,
});

const NOT_POSITIVE = () => unprocessable('gift_cards/value_adder', 'base', 'You must remove a positive value.');
const MORE_THAN_BALANCE = (balance: number) =>
  unprocessable('gift_cards/value_adder', 'base', `This giftcard has a balance of $${(balance / 100).toFixed(2)}. Please retry with that amount.`);
const ADDITION_NOT_FOUND = () =>
  unprocessable('gift_card_value_removal', 'uuid', 'No gift card value addition with this uuid was made to this QR code at this merchant.', 'not_found');
const CONTENDED = () => conflict('This gift card is being changed by another request; retry shortly.', 1, 'gift_card_value_removal', 'in_progress');

/** Tries before a removal that keeps losing the balance's version to other writes answers 409. */
const ROUNDS = 8;

/** A .NET Guid arrives hyphenated (8-4-4-4-12); additions are answered and stored as 32 hex characters. */
export function additionUuidOf(uuid: string): string {
  return uuid.trim().replaceAll('-', '').toLowerCase();
}

async function storedReversal(additionUuid: string): Promise<GiftCardRemovalResponse | undefined> {
  const stored = (await GiftCardAdditionReversal.at(additionUuid).get({ consistent: true }))?.response_json;
  return typeof stored === 'string' ? (JSON.parse(stored) as GiftCardRemovalResponse) : undefined;
}

export async function removeGiftCardValue(
  input: MerchantOperation<GiftCardRemovalResponse> & { removal: GiftCardValueRemovalRequest },
): Promise<GiftCardRemovalResponse> {
  const { merchantId, removal } = input;
  const additionUuid = removal.uuid ? additionUuidOf(removal.uuid) : undefined;
  if (!additionUuid && (removal.value_amount ?? 0) <= 0) throw NOT_POSITIVE();
  const approval = await optionalApproval({ merchantId, given: removal.manager_confirmation, actor: input.audit?.actor, operation: 'gift_card_value_removal' });

  const customer = { paymentTokenData: removal.payment_token_data };
  const account = (userId: number) => giftCardAccountKey(userId, merchantId);
  // The QR code, and the addition being reversed with any earlier reversal of it: one BatchGetItem.
  const [paymentToken, additionRead, reversalRead] = await readItems(
    [...customerKeys(customer), ...(additionUuid ? [GiftCardAddition.key(additionUuid), GiftCardAdditionReversal.key(additionUuid)] : [])],
    { consistent: true },
  );
  const [addition, reversal] = [GiftCardAddition.from(additionRead), GiftCardAdditionReversal.from(reversalRead)];
  const userId = customerFrom(customer, [paymentToken]);
  if (userId === undefined) throw notFound();
  if (additionUuid) {
    if (addition?.merchant_id !== merchantId || addition.user_id !== userId) throw ADDITION_NOT_FOUND();
    if (typeof reversal?.response_json === 'string') return JSON.parse(reversal.response_json) as GiftCardRemovalResponse;
  }

  const removalUuid = newUuid();
  for (let round = 1; round <= ROUNDS; round++) {
    const now = isoSeconds();
    const card = await readGiftCardValue(merchantId, userId);
    const balance = Math.max(0, card.balance);
    const wanted = addition ? addition.value_amount : removal.value_amount!;
    if (!additionUuid && wanted > balance) throw MORE_THAN_BALANCE(balance);
    const removed = Math.min(wanted, balance);
    const response: GiftCardRemovalResponse = {
      gift_card_value_removal: { removed_value_amount: removed, new_value_at_merchant_amount: balance - removed, old_value_at_merchant_amount: balance },
    };
    const batch = new LabelledItems();
    if (additionUuid) {
      batch.add(
        'reversal',
        GiftCardAdditionReversal.at(additionUuid).putNew({
          removal_uuid: removalUuid,
          response_json: JSON.stringify(response),
          created_at: now,
        }),
      );
    }
    batch.add(
      'removal',
      GiftCardRemoval.at(removalUuid).putNew({
        uuid: removalUuid,
        merchant_id: merchantId,
        user_id: userId,
        value_amount: removed,
        addition_uuid: additionUuid ?? null,
        created_at: now,
        approved_by_staff_id: approval.approvedBy,
      }),
    );
    if (input.audit) {
      const change = { before: { value_amount: balance }, after: { value_amount: balance - removed, user_id: userId } };
      const object = { type: 'gift_card_value_removal', id: removalUuid };
      batch.add('audit', auditEntry(input.audit, { merchantId, action: 'gift_card.value_removed', object, ...change, ...approval }));
    }
    batch.add(
      'balance',
      ...balanceChangeItems(
        account(userId),
        [
          {
            kind: 'gift_card_removed',
            amount: -removed,
            entryId: `gcremove:${removalUuid}`,
            reference: { removal_uuid: removalUuid, addition_uuid: additionUuid ?? null },
          },
        ],
        { expectedVersion: card.version, now },
      ),
    );
    batch.add('event', ...(await giftCardValueEvent('gift_card.value_removed', card, response.gift_card_value_removal)));
    const commit = await commitKeyedRound(batch, 'removal', input.storeResponse?.(response), CONTENDED);
    if (commit.done) return response;
    if (additionUuid && commit.failed.has('reversal')) {
      // Another request reversed this addition first: its answer is ours (committed with its transaction).
      for (let read = 1; read <= 10; read++) {
        const winner = await storedReversal(additionUuid);
        if (winner) return winner;
        await backoff(read, CONTENTION_BACKOFF);
      }
    }
    // The balance moved (another load, removal or order): read it again.
    await backoff(round, CONTENTION_BACKOFF);
  }
  throw CONTENDED();
}
