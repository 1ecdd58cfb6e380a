/**
 * Users by phone (docs/data-model.md, "Phone index"): a user's phone is stored as typed, and beside it one index item
 * per (normalised phone, user), written in the same transaction as the user's create or phone change. Normalised is
 * E.164 as libphonenumber-js reads the number, US when it carries no country code (the platform's SDKs are US), so
 * "(617) 555-0100", "+1 617-555-0100" and "6175550100" are one number. A number that is not a possible one for its
 * country is not indexed: nobody finds that user by phone, which is all the index is for. The library's core reads
 * phone-metadata.json: its min metadata without the formatting data (`npm run phone-metadata`), which is most of the
 * metadata every function that writes a phone bundles; test/customers/phone-metadata.unit.test.ts holds its answers
 * to the full min metadata's.
 */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { parsePhoneNumberFromString, type MetadataJson } from 'libphonenumber-js/core';
import { db, table } from '#shared/db/client.ts';
import { equals } from '#shared/db/conditions.ts';
import { defineEntity } from '#shared/db/entity.ts';
import { keys } from '#shared/db/keys.ts';
import { pageInKeyOrder } from '#shared/db/reads.ts';
import { transactWrite, type TransactItem } from '#shared/db/transactions.ts';
import { retryTransient } from '#shared/db/transient.ts';
import { User } from '#shared/domain/identity/entities.ts';
import phoneMetadata from '#shared/domain/identity/phone-metadata.json' with { type: 'json' };

/** One user's phone in the index: the partition is the normalised phone, the sort key the user. */
export const PhoneIndexEntry = defineEntity<{ user_id: number; phone: string }>()({ entity: 'PhoneIndexEntry', key: keys.userPhone });

/** The metadata parsing reads (the package's min metadata less formatting; its JSON type is too wide to check). */
const PHONE_METADATA = phoneMetadata as unknown as MetadataJson;

/** The country a number without a country code is read in. */
const DEFAULT_COUNTRY = 'US';

/** The phone in E.164 (`+16175550100`), or undefined when it does not parse as a possible number (then it is not indexed). */
export function normalisedPhone(typed: string | null | undefined): string | undefined {
  if (typed === null || typed === undefined) return undefined;
  const parsed = parsePhoneNumberFromString(typed, DEFAULT_COUNTRY, PHONE_METADATA);
  return parsed?.isPossible() ? parsed.number : undefined;
}

/**
 * The index writes of a user's phone going from `before` to `after` (as typed; null or undefined: none): the old
 * entry deleted and the new one put when their normalised forms differ, nothing when they are the same number.
 * They go in the transaction that writes the phone, so the index never names a number the user no longer has.
 */
export function phoneIndexChanges(userId: number, before: string | null | undefined, after: string | null | undefined): TransactItem[] {
  const oldPhone = normalisedPhone(before);
  const newPhone = normalisedPhone(after);
  if (oldPhone === newPhone) return [];
  const changes: TransactItem[] = [];
  if (oldPhone !== undefined) changes.push(PhoneIndexEntry.at(oldPhone, userId).delete());
  if (newPhone !== undefined) changes.push(PhoneIndexEntry.at(newPhone, userId).put({ user_id: userId, phone: newPhone }));
  return changes;
}

/** The ids of the first `limit` users (by id) whose phone is this normalised one: one Query. */
export async function usersWithPhone(phone: string, limit: number): Promise<number[]> {
  return pageInKeyOrder(keys.phoneUsers(phone), { page: 1 }, limit, (item) => PhoneIndexEntry.from(item)?.user_id, { readAtMost: limit });
}

/** Where a backfill stopped (the Scan's last key, as JSON) and what it did so far. */
export interface PhoneBackfillPage {
  scanned: number;
  indexed: number;
  /** Pass as `--from` to go on from here; null: the table is done. */
  next: string | null;
}

/**
 * Indexes the phone of every user (the operators' `index-phones`, for users made before the index): one page of a
 * Scan for user items, each phone that normalises put as its entry, guarded by the user's phone being still the one
 * read (a Put of the same item again changes nothing, so running it twice, or over users the API already indexed, is
 * harmless). Resumable: each page answers where the next starts (docs/merchant-api.md, "Operators' CLI").
 */
export async function backfillPhoneIndexPage(from: string | undefined, pageSize: number): Promise<PhoneBackfillPage> {
  const result = await retryTransient(() =>
    db().send(
      new ScanCommand({
        TableName: table(),
        FilterExpression: 'entity = :user',
        ExpressionAttributeValues: { ':user': 'User' },
        Limit: pageSize,
        ExclusiveStartKey: from === undefined ? undefined : (JSON.parse(from) as Record<string, string>),
      }),
    ),
  );
  let indexed = 0;
  for (const item of result.Items ?? []) {
    const user = User.from(item);
    const phone = normalisedPhone(user?.phone);
    if (user === undefined || phone === undefined) continue;
    // Guarded by the phone read: a user who changed it since has the new number's entry from the change itself.
    const outcome = await transactWrite(() => [
      User.at(user.user_id).conditionCheck(equals('phone', user.phone)),
      PhoneIndexEntry.at(phone, user.user_id).put({ user_id: user.user_id, phone }),
    ]);
    if (outcome.committed) indexed += 1;
  }
  return { scanned: result.ScannedCount ?? 0, indexed, next: result.LastEvaluatedKey ? JSON.stringify(result.LastEvaluatedKey) : null };
}
