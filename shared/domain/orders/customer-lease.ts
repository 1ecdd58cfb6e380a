/**
 * One settlement at a time per customer and merchant. Two orders of one customer settling at once both
 * read the same balances and loyalty progress; one of them then loses its commit, and its card charge
 * must be voided and made again (issue 12.5: 8 concurrent orders made 27 voids). So a settlement first
 * takes this lease, BEFORE it claims its source and charges: the card is charged once per order.
 *
 * The lease is an item (`keys.customerSettlement`) written with a condition: free, or its holder's lease
 * expired. The holder's money transaction deletes it (guarded by the holder's token), so the happy path
 * costs one write. A settlement that fails gives it back (`releaseCustomer`); a crashed one frees it when
 * the lease expires, like the source's own lease (lease.ts), which it never outlives. Waiters poll with
 * reads (a read does not disturb the holder's transaction) and answer 409 with Retry-After when the wait
 * runs out (a duplicate of the holder's own order gets the source lease's 409 `in_progress` at once); the
 * client retries. Money never depends on this lease: the transaction's guards still hold.
 */
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, isConditionFailure, table } from '#shared/db/client.ts';
import { newUuid } from '#shared/db/ids.ts';
import { keys, type Key } from '#shared/db/keys.ts';
import type { TransactItem } from '#shared/db/transactions.ts';
import { backoff, CONTENTION_BACKOFF, retryTransient } from '#shared/db/transient.ts';
import { conflict } from '#shared/errors.ts';
import { epochSeconds } from '#shared/time.ts';
import { IN_PROGRESS, SETTLEMENT_LEASE_SECONDS } from './lease.ts';

/** How long a settlement waits for another of the same customer before answering 409. */
export const CUSTOMER_WAIT_MS = 4000;

export const CUSTOMER_BUSY = () => conflict('Another order of this customer is being completed; retry shortly.', 1, 'order', 'customer_busy');

export interface CustomerHold {
  key: Key;
  token: string;
}

async function currentHolder(key: Key): Promise<Record<string, unknown> | undefined> {
  return (await retryTransient(() => db().send(new GetCommand({ TableName: table(), Key: key, ConsistentRead: true })))).Item;
}

function isFree(item: Record<string, unknown> | undefined, now: number): boolean {
  return item === undefined || Number(item.lease_until ?? 0) < now;
}

/** A hold of the customer at the merchant, not taken yet: `holdPut` takes it. */
export function newCustomerHold(userId: number, merchantId: number): CustomerHold {
  return { key: keys.customerSettlement(userId, merchantId), token: newUuid() };
}

/**
 * The Put that takes `hold` for `sourceUuid` at `now` (epoch seconds): only while the lease is free or its
 * holder's lease expired. holdCustomer sends it alone; a one-step order sends it in the transaction that
 * creates its source (one-step.ts).
 */
export function holdPut(hold: CustomerHold, userId: number, merchantId: number, sourceUuid: string, now: number): NonNullable<TransactItem['Put']> {
  return {
    TableName: table(),
    Item: {
      ...hold.key,
      entity: 'CustomerSettlement',
      user_id: userId,
      merchant_id: merchantId,
      source_uuid: sourceUuid,
      lease_token: hold.token,
      lease_until: now + SETTLEMENT_LEASE_SECONDS,
    },
    ConditionExpression: 'attribute_not_exists(pk) OR lease_until < :now',
    ExpressionAttributeValues: { ':now': now },
  };
}

/** Takes the customer's settlement lease for `sourceUuid`, waiting up to CUSTOMER_WAIT_MS for another holder. */
export async function holdCustomer(userId: number, merchantId: number, sourceUuid: string): Promise<CustomerHold> {
  const hold = newCustomerHold(userId, merchantId);
  const { key, token } = hold;
  const deadline = Date.now() + CUSTOMER_WAIT_MS;
  for (let attempt = 1; ; attempt++) {
    const now = epochSeconds();
    try {
      // Re-sent when its answer is lost; the token tells our own earlier success from a rival's.
      await retryTransient(() => db().send(new PutCommand(holdPut(hold, userId, merchantId, sourceUuid, now))));
      return hold;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
    // Held: wait with reads until it looks free, then try to take it again.
    for (;;) {
      const holder = await currentHolder(key);
      if (holder?.lease_token === token) return hold;
      const now = epochSeconds();
      if (isFree(holder, now)) break;
      // The holder is settling this very order (a duplicate request): the answer the source's own lease gives.
      if (holder?.source_uuid === sourceUuid) throw IN_PROGRESS(Math.max(1, Math.min(5, Number(holder.lease_until) - now)));
      if (Date.now() > deadline) throw CUSTOMER_BUSY();
      await backoff(attempt++, CONTENTION_BACKOFF);
    }
  }
}

/** The Delete of the lease inside the holder's money transaction: it commits only while the lease is ours. */
export function releaseCustomerItem(hold: CustomerHold): TransactItem {
  return { Delete: { TableName: table(), Key: hold.key, ConditionExpression: 'lease_token = :token', ExpressionAttributeValues: { ':token': hold.token } } };
}

/** Gives the lease back after a settlement that did not commit (best effort: it expires anyway). */
export async function releaseCustomer(hold: CustomerHold): Promise<void> {
  try {
    await retryTransient(() =>
      db().send(
        new DeleteCommand({
          TableName: table(),
          Key: hold.key,
          ConditionExpression: 'lease_token = :token',
          ExpressionAttributeValues: { ':token': hold.token },
        }),
      ),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}
