/**
 * Expiry per grant: which part of a user's merchant-funded credit each expiring grant still holds, found by
 * replaying the credit account's ledger entries in order into buckets (pure: no reads, no clock).
 *
 * Buckets: one per grant (its `credit_granted` value, expiring at the grant's `expires_at`) and one
 * permanent bucket (everything that does not expire: rewards, claims, adjustments, detached refunds, and the
 * balance from before the first replayed entry). Their sum is always the balance. Replay rules:
 * - a credit goes into its own bucket: a grant into the grant's, a refund's restored discount back into the
 *   buckets that order's discount was drawn from (the permanent one if a grant's bucket has closed since),
 *   anything else into the permanent one;
 * - spending (`credit_applied`, and any debit not named below) draws from the earliest-expiring bucket first:
 *   open grants by expiry, then the permanent bucket, which alone may go negative (a debt);
 * - a movement that takes back specific non-expiring value (a claw-back of earned credit, a paused reward,
 *   a reversed detached refund) takes it from the permanent bucket, going negative if need be: taking it
 *   from a grant's bucket would shield that much of the grant from its expiry (unpausing, or later earnings
 *   repaying the debt, would then bring expired value back to life);
 * - a grant's own expiry (`credit_expired`) takes what it took from the grant's bucket and closes it; a
 *   closed grant with no expiry entry (nothing was left of it) closes at its expiry. Whatever a closed bucket
 *   still holds (only an entry written before per-grant expiry could leave any) joins the permanent bucket.
 * An open grant whose `credit_granted` entry is not among the entries replayed starts full (nothing of it
 * counts as spent): expiring too much of an unknown grant is the merchant's side of the doubt.
 *
 * Order: by `written_at_ms` (the time each entry was written, to the millisecond; `created_at`, in whole
 * seconds, for entries written before it was recorded); on a tie credits first (a credit is never spent
 * before it exists, so a spend tied with a grant draws from the grant), then other debits, then expiries and
 * closings, then restores of discounts drawn at that same time (a refund follows its order). Entries of
 * transactions that raced each other within the clocks' skew may replay in either order. An expiry
 * entry records how many of the account's entries preceded it (the balance's version it was guarded by):
 * it is replayed exactly after that many.
 */

/** A credit account's ledger entry, as read (the attributes the replay needs). */
export interface CreditLedgerEntry {
  entry_id: string;
  kind: string;
  amount: number;
  created_at: string;
  /** When it was written, in epoch milliseconds (entries from before it was recorded have only created_at). */
  written_at_ms?: number;
  reference?: Record<string, unknown> | null;
}

/** An open grant as the grants item lists it. */
export interface OpenGrant {
  uuid: string;
  amount: number;
  expires_at: string;
}

export interface CreditReplayInput {
  /** The credit account's balance (the sum of every entry ever written to it). */
  balance: number;
  /** Every entry of the account, in any order. */
  entries: readonly CreditLedgerEntry[];
  /** The grants still listed as open (not yet expired). */
  openGrants: readonly OpenGrant[];
  /** Expiry of closed grants that left no `credit_expired` entry (read from their grant records). */
  closedGrantExpiries?: ReadonlyMap<string, string>;
}

export interface CreditBuckets {
  /** What each open grant still holds (0..its amount). */
  grants: Map<string, number>;
  /** The non-expiring rest of the balance (negative while a claw-back's debt is unpaid). */
  permanent: number;
}

/** Movements that take back specific non-expiring value: from the permanent bucket, never from a grant's. */
const TAKES_BACK_PERMANENT: ReadonlySet<string> = new Set(['credit_reversed', 'credit_paused', 'detached_refund_reversed']);

const PERMANENT = '';

function grantUuidOf(entry: CreditLedgerEntry): string | undefined {
  const uuid = entry.reference?.grant_uuid;
  return typeof uuid === 'string' ? uuid : undefined;
}

/** An order's discount entries share `order:<uuid>:` (settlement's credit_applied, refund's credit_restored). */
function orderOf(entry: CreditLedgerEntry): string | undefined {
  const match = /^(order:[^:]+):credit_(?:applied|restored)$/.exec(entry.entry_id);
  return match?.[1];
}

/** When an expiry entry's grant expired: recorded on the entry, else the entry's own time (older entries). */
function expiryOf(entry: CreditLedgerEntry): string {
  const recorded = entry.reference?.expires_at;
  return typeof recorded === 'string' ? recorded : entry.created_at;
}

/** When each grant named by the entries or listed open expires; a grant with no known expiry counts as permanent credit. */
export function grantExpiries(input: CreditReplayInput): Map<string, string> {
  const expiries = new Map<string, string>(input.closedGrantExpiries ?? []);
  for (const entry of input.entries) {
    const uuid = grantUuidOf(entry);
    if (uuid !== undefined && entry.kind === 'credit_expired') expiries.set(uuid, expiryOf(entry));
  }
  for (const grant of input.openGrants) expiries.set(grant.uuid, grant.expires_at);
  return expiries;
}

/** Closed grants the entries name whose expiry they do not tell: the caller reads it from their grant records. */
export function grantsOfUnknownExpiry(entries: readonly CreditLedgerEntry[], openGrants: readonly OpenGrant[]): string[] {
  const known = new Set(grantExpiries({ balance: 0, entries, openGrants }).keys());
  const granted = entries.filter((entry) => entry.kind === 'credit_granted').map(grantUuidOf);
  return [...new Set(granted.filter((uuid): uuid is string => uuid !== undefined && !known.has(uuid)))];
}

type ReplayEvent = { at: number; rank: number; id: string; entry?: CreditLedgerEntry; close?: string };

const timeOf = (entry: CreditLedgerEntry): number => (typeof entry.written_at_ms === 'number' ? entry.written_at_ms : Date.parse(entry.created_at));

/** The number of the account's entries written before an expiry entry (recorded by the expiry since per-grant expiry). */
function entriesBefore(entry: CreditLedgerEntry): number | undefined {
  const count = entry.reference?.entries_before;
  return entry.kind === 'credit_expired' && typeof count === 'number' ? count : undefined;
}

function replayOrder(input: CreditReplayInput, expiries: ReadonlyMap<string, string>): ReplayEvent[] {
  const appliedAt = new Map<string, number>();
  for (const entry of input.entries) {
    const order = orderOf(entry);
    if (order !== undefined && entry.kind === 'credit_applied') appliedAt.set(order, timeOf(entry));
  }
  const rankOf = (entry: CreditLedgerEntry): number => {
    if (entry.kind === 'credit_restored' && appliedAt.get(orderOf(entry) ?? '') === timeOf(entry)) return 3;
    if (entry.amount >= 0) return 0;
    return entry.kind === 'credit_expired' ? 2 : 1;
  };
  const placed = input.entries.filter((entry) => entriesBefore(entry) !== undefined).sort((a, b) => entriesBefore(a)! - entriesBefore(b)!);
  const events: ReplayEvent[] = input.entries
    .filter((entry) => entriesBefore(entry) === undefined)
    .map((entry) => ({ at: timeOf(entry), rank: rankOf(entry), id: entry.entry_id, entry }));
  const open = new Set(input.openGrants.map((grant) => grant.uuid));
  const expiredByEntry = new Set(input.entries.filter((entry) => entry.kind === 'credit_expired').map(grantUuidOf));
  const grantedAt = new Map(input.entries.filter((entry) => entry.kind === 'credit_granted').map((entry) => [grantUuidOf(entry), timeOf(entry)]));
  for (const [uuid, at] of expiries) {
    // Never before its own grant (an expiry set in the past, as tests do, would close a bucket not yet opened).
    const closesAt = Math.max(Date.parse(at), grantedAt.get(uuid) ?? Number.NEGATIVE_INFINITY);
    if (!open.has(uuid) && !expiredByEntry.has(uuid)) events.push({ at: closesAt, rank: 2, id: `close:${uuid}`, close: uuid });
  }
  events.sort((a, b) => a.at - b.at || a.rank - b.rank || a.id.localeCompare(b.id));
  // An expiry that recorded how many entries preceded it goes exactly there (a second holds many entries).
  for (const entry of placed) {
    let seen = 0;
    let index = 0;
    while (index < events.length && (seen < entriesBefore(entry)! || !events[index]!.entry)) {
      if (events[index]!.entry) seen++;
      index++;
    }
    events.splice(index, 0, { at: timeOf(entry), rank: 2, id: entry.entry_id, entry });
  }
  return events;
}

/** Replays the entries into buckets (see the header): what each open grant still holds, and the permanent rest. */
export function replayCreditBuckets(input: CreditReplayInput): CreditBuckets {
  const expiries = grantExpiries(input);
  const buckets = new Map<string, number>();
  let permanent = input.balance - input.entries.reduce((sum, entry) => sum + entry.amount, 0);
  const granted = new Set(input.entries.filter((entry) => entry.kind === 'credit_granted').map(grantUuidOf));
  for (const grant of input.openGrants) {
    if (granted.has(grant.uuid)) continue;
    buckets.set(grant.uuid, grant.amount);
    permanent -= grant.amount;
  }
  const drawnBy = new Map<string, { bucket: string; amount: number }[]>();
  const add = (bucket: string, amount: number) => {
    if (bucket !== PERMANENT && buckets.has(bucket)) buckets.set(bucket, buckets.get(bucket)! + amount);
    else permanent += amount;
  };
  const close = (uuid: string) => {
    permanent += buckets.get(uuid) ?? 0;
    buckets.delete(uuid);
  };
  const spend = (amount: number): { bucket: string; amount: number }[] => {
    const drawn: { bucket: string; amount: number }[] = [];
    let left = amount;
    const byExpiry = [...buckets.keys()].sort((a, b) => expiries.get(a)!.localeCompare(expiries.get(b)!) || a.localeCompare(b));
    for (const uuid of byExpiry) {
      const take = Math.min(left, Math.max(0, buckets.get(uuid)!));
      if (take === 0) continue;
      buckets.set(uuid, buckets.get(uuid)! - take);
      drawn.push({ bucket: uuid, amount: take });
      left -= take;
    }
    if (left > 0) {
      permanent -= left;
      drawn.push({ bucket: PERMANENT, amount: left });
    }
    return drawn;
  };
  for (const event of replayOrder(input, expiries)) {
    const entry = event.entry;
    if (!entry) {
      close(event.close!);
      continue;
    }
    const uuid = grantUuidOf(entry);
    if (entry.kind === 'credit_granted' && uuid !== undefined && expiries.has(uuid)) {
      buckets.set(uuid, (buckets.get(uuid) ?? 0) + entry.amount);
    } else if (entry.kind === 'credit_expired' && uuid !== undefined) {
      add(uuid, entry.amount);
      close(uuid);
    } else if (entry.kind === 'credit_restored' && drawnBy.has(orderOf(entry) ?? '')) {
      let left = entry.amount;
      for (const drawn of [...drawnBy.get(orderOf(entry)!)!].reverse()) {
        const back = Math.min(left, drawn.amount);
        add(drawn.bucket, back);
        left -= back;
      }
      add(PERMANENT, left);
    } else if (entry.amount >= 0 || TAKES_BACK_PERMANENT.has(entry.kind)) {
      add(PERMANENT, entry.amount);
    } else {
      const drawn = spend(-entry.amount);
      const order = orderOf(entry);
      if (order !== undefined) drawnBy.set(order, drawn);
    }
  }
  return { grants: buckets, permanent };
}

/**
 * What due grants leave when the entries are not replayed (an account past the replay's bound): each grant
 * whole, as if nothing of it had been spent, in the order given, never more in all than a positive balance.
 */
export function unspentUpToBalance(balance: number, due: readonly OpenGrant[]): Map<string, number> {
  let left = Math.max(0, balance);
  return new Map(
    due.map((grant) => {
      const expiring = Math.min(grant.amount, left);
      left -= expiring;
      return [grant.uuid, expiring];
    }),
  );
}
