/**
 * The audit log (docs/merchant-api.md, "Audit log"): one append-only entry per management change and per money
 * action at a merchant, written by `auditEntry` as an item of the change's OWN transaction, so no change commits
 * without its entry and no entry without its change. Entries are only ever created (`putNew`): no code path updates
 * or deletes one (test/audit/append-only.unit.test.ts). Their ids start with their time, so a merchant's partition
 * reads newest first (or oldest first, for the CSV export) by its sort key alone.
 */
import { randomBytes } from 'node:crypto';
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { db, table } from '#shared/db/client.ts';
import { and, equals, or, Placeholders, type Condition } from '#shared/db/conditions.ts';
import { defineEntity, type EntityItem } from '#shared/db/entity.ts';
import { keys } from '#shared/db/keys.ts';
import type { TransactItem } from '#shared/db/transactions.ts';
import { retryTransient } from '#shared/db/transient.ts';
import type { Credentials } from '#shared/auth/tokens.ts';
import type { StaffActor, StaffRole } from '#shared/auth/roles.ts';
import type { AuditAction, AuditLogFilters } from '#shared/schemas/audit.ts';
import { isoSeconds } from '#shared/time.ts';
import { csvText } from '#shared/domain/csv.ts';

/** Who made a change: a staff member (their own token), the merchant's shared POS login, or the platform's operator (the CLI). */
export type AuditActor = { kind: 'staff'; staffId: number; role: StaffRole } | { kind: 'shared_login' } | { kind: 'operator' };

/** Where a request came from, bounded. The operator's CLI has none. */
export interface AuditOrigin {
  sourceIp: string | null;
  userAgent: string | null;
  requestId: string | null;
}

/** Who and from where: what a handler passes down to a domain change that writes an audit entry. */
export interface AuditContext {
  actor: AuditActor;
  origin: AuditOrigin;
}

/**
 * What a management write (shared/http/management.ts) hands its domain change: the staff member who writes, the
 * request's audit context, and the Put of the route's stored answer, to commit in the change's own transaction.
 */
export interface StaffWrite<T> {
  actor: StaffActor;
  context: AuditContext;
  storeResponse: (result: T) => TransactItem | undefined;
}

/**
 * A merchant's audited money operation, beside its request: whose merchant, how its answer is stored in its own
 * transaction (the Idempotency-Key's, when the request carries one) and who asks, from where (its audit entry).
 */
export interface MerchantOperation<TResponse> {
  merchantId: number;
  storeResponse?: (response: TResponse) => TransactItem | undefined;
  audit?: AuditContext;
}

export interface AuditChange {
  merchantId: number;
  action: AuditAction;
  /** What changed: its type (`order`, `staff`, `location`...) and id. */
  object: { type: string; id: string | number };
  /** The object before and after (each bounded and stripped of secrets by `snapshotJson`); absent for a creation's before. */
  before?: unknown;
  after?: unknown;
  /** The staff member whose manager code (or own manager token) approved a money action; null: the shared code or none. */
  approvedBy?: number | null;
}

export interface AuditEntryAttributes {
  entry_id: string;
  merchant_id: number;
  actor: AuditActor['kind'];
  staff_id: number | null;
  role: StaffRole | null;
  action: AuditAction;
  object_type: string;
  object_id: string;
  before_json: string | null;
  after_json: string | null;
  approved_by_staff_id: number | null;
  created_at: string;
  source_ip: string | null;
  user_agent: string | null;
  request_id: string | null;
}

export const AuditEntry = defineEntity<AuditEntryAttributes>()({ entity: 'AuditEntry', key: keys.auditEntry });
export type AuditEntryItem = EntityItem<typeof AuditEntry>;

/** Longest stored before or after (JSON characters): a larger object is stored as its field names only. */
export const MAX_SNAPSHOT_CHARS = 2048;
const MAX_USER_AGENT_CHARS = 256;
const MAX_SOURCE_IP_CHARS = 64;
const MAX_REQUEST_ID_CHARS = 128;
/** Deepest nesting a snapshot keeps (deeper values are dropped). */
const MAX_SNAPSHOT_DEPTH = 6;
/**
 * Fields never written to the log, at any depth: passwords and their hashes, codes (manager codes, confirmations,
 * cohort codes), tokens, secrets, QR code data, card nonces. A false positive only hides a field; a miss would leak.
 */
const SECRET_FIELD = /password|secret|(^|_)(tokens?|codes?|confirmation|hash|nonce|pin|cvv)(_|$)/i;

/** `value` as bounded JSON without secrets: what an entry stores as its before or after. */
export function snapshotJson(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  const json = JSON.stringify(withoutSecrets(value, 0)) ?? null;
  if (json === null || json.length <= MAX_SNAPSHOT_CHARS) return json;
  const fields = typeof value === 'object' && !Array.isArray(value) ? Object.keys(value).filter((name) => !SECRET_FIELD.test(name)) : [];
  return JSON.stringify({ truncated: true, fields: fields.slice(0, 50) }).slice(0, MAX_SNAPSHOT_CHARS);
}

function withoutSecrets(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== 'object') return typeof value === 'string' ? value.slice(0, MAX_SNAPSHOT_CHARS) : value;
  if (depth >= MAX_SNAPSHOT_DEPTH) return undefined;
  if (Array.isArray(value)) return value.slice(0, 100).map((element) => withoutSecrets(element, depth + 1));
  const kept: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value).slice(0, 100)) {
    if (!SECRET_FIELD.test(name)) kept[name] = withoutSecrets(field, depth + 1);
  }
  return kept;
}

/** What `newAuditEntryId` makes. */
const AUDIT_ENTRY_ID = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z_[0-9a-f]{12}$/;

/** A new entry id: the instant in ms (ISO, UTC) and 48 random bits, so ids sort by time and never collide. */
export function newAuditEntryId(now: Date = new Date()): string {
  return `${now.toISOString()}_${randomBytes(6).toString('hex')}`;
}

/** The audit entry of `change` by `actor`, from `origin`: a Put of the change's own transaction that only creates. */
export function auditEntry(context: AuditContext, change: AuditChange, now: Date = new Date()): TransactItem {
  const entryId = newAuditEntryId(now);
  const actor = context.actor;
  return AuditEntry.at(change.merchantId, entryId).putNew({
    entry_id: entryId,
    merchant_id: change.merchantId,
    actor: actor.kind,
    staff_id: actor.kind === 'staff' ? actor.staffId : null,
    role: actor.kind === 'staff' ? actor.role : null,
    action: change.action,
    object_type: change.object.type.slice(0, 64),
    object_id: String(change.object.id).slice(0, 128),
    before_json: snapshotJson(change.before),
    after_json: snapshotJson(change.after),
    approved_by_staff_id: change.approvedBy ?? null,
    created_at: isoSeconds(now),
    source_ip: context.origin.sourceIp?.slice(0, MAX_SOURCE_IP_CHARS) ?? null,
    user_agent: context.origin.userAgent?.slice(0, MAX_USER_AGENT_CHARS) ?? null,
    request_id: context.origin.requestId?.slice(0, MAX_REQUEST_ID_CHARS) ?? null,
  });
}

/** The acting party of a merchant request: the staff member its token carries, else the merchant's shared login. */
export function auditActorOf(credentials: Credentials): AuditActor {
  const staff = credentials.merchant?.staff;
  return staff ? { kind: 'staff', staffId: staff.staffId, role: staff.role } : { kind: 'shared_login' };
}

/** Who and from where, from an admitted request (its address as the per-client limits see it, its User-Agent, its id). */
export function auditContextOf(request: {
  credentials: Credentials;
  sourceIp: string;
  requestId: string;
  headers: Record<string, string | undefined>;
}): AuditContext {
  return {
    actor: auditActorOf(request.credentials),
    origin: { sourceIp: request.sourceIp || null, userAgent: request.headers['user-agent'] ?? null, requestId: request.requestId || null },
  };
}

/** The operator's CLI (scripts/admin): no request, no address. */
export const OPERATOR_AUDIT: AuditContext = { actor: { kind: 'operator' }, origin: { sourceIp: null, userAgent: null, requestId: null } };

/** Entries a page of the list holds. */
export const AUDIT_PAGE_SIZE = 50;
/** Entries one filtered read evaluates at most before it answers what it found (with where to resume). */
const MAX_EVALUATED_PER_READ = 1000;

export interface AuditLogRead {
  entries: AuditEntryItem[];
  /** Where a read that stopped before the end resumes (a sort key), when that is past the last entry it answers. */
  resumeAfter?: string;
}

/**
 * Up to `limit` entries of the merchant's log within the filters, newest first (or oldest first with `ascending`),
 * after `cursor` (a sort key this API gave). The dates are key conditions; `action` and `staff_id` filter, so a
 * read evaluates at most MAX_EVALUATED_PER_READ entries (or `limit`, whichever is more) and says where it stopped.
 */
export async function readAuditLog(
  merchantId: number,
  filters: AuditLogFilters,
  options: { cursor?: string; limit: number; ascending?: boolean },
): Promise<AuditLogRead> {
  const partition = keys.auditLog(merchantId);
  const placeholders = new Placeholders();
  const lowest = `${partition.skPrefix}${filters.from ?? ''}`;
  // `to` is exclusive: an entry at that very instant sorts after the bound (its id goes on), so BETWEEN leaves it out.
  const highest = `${partition.skPrefix}${filters.to ?? '~'}`;
  const filter = auditFilter(filters);
  const input: QueryCommandInput = {
    TableName: table(),
    KeyConditionExpression: `${placeholders.name('pk')} = ${placeholders.value(partition.pk)} AND ${placeholders.name('sk')} BETWEEN ${placeholders.value(lowest)} AND ${placeholders.value(highest)}`,
    ...(filter ? { FilterExpression: filter.render(placeholders) } : {}),
    ScanIndexForward: options.ascending === true,
    ...placeholders.expressionAttributes(),
  };
  const entries: AuditEntryItem[] = [];
  let start = options.cursor === undefined ? undefined : { pk: partition.pk, sk: options.cursor };
  let evaluated = 0;
  const budget = Math.max(MAX_EVALUATED_PER_READ, options.limit);
  while (entries.length < options.limit) {
    const page = await retryTransient(() =>
      db().send(new QueryCommand({ ...input, ExclusiveStartKey: start, Limit: Math.min(budget - evaluated, Math.max(options.limit - entries.length, 100)) })),
    );
    for (const item of page.Items ?? []) {
      const entry = AuditEntry.from(item);
      if (entry && entries.length < options.limit) entries.push(entry);
    }
    evaluated += page.ScannedCount ?? 0;
    const last = page.LastEvaluatedKey as { sk?: string } | undefined;
    if (!last?.sk) return { entries };
    start = { pk: partition.pk, sk: last.sk };
    if (evaluated >= budget && entries.length < options.limit) return { entries, resumeAfter: last.sk };
  }
  return { entries };
}

function auditFilter(filters: AuditLogFilters): Condition | undefined {
  const conditions: Condition[] = [];
  if (filters.action !== undefined) conditions.push(equals('action', filters.action));
  // A staff member's entries: what they did, and the money actions their code approved.
  if (filters.staff_id !== undefined) conditions.push(or(equals('staff_id', filters.staff_id), equals('approved_by_staff_id', filters.staff_id)));
  return conditions.length === 0 ? undefined : and(...conditions);
}

/** Whether a decoded cursor is the sort key of an audit entry (what `auditPosition` gives). */
export function isAuditPosition(position: string): boolean {
  const prefix = keys.auditLog(0).skPrefix;
  return position.startsWith(prefix) && AUDIT_ENTRY_ID.test(position.slice(prefix.length));
}

/** The position after an entry (its sort key): what a Link's cursor carries. */
export function auditPosition(entry: AuditEntryItem): string {
  return entry.sk;
}

/** An entry as the API answers it (docs/merchant-api.md, "Audit log"). */
export function auditEntryView(entry: AuditEntryItem) {
  return {
    id: entry.entry_id,
    merchant_id: entry.merchant_id,
    action: entry.action,
    actor: { kind: entry.actor, staff_id: entry.staff_id, role: entry.role },
    object: { type: entry.object_type, id: entry.object_id },
    before: parseSnapshot(entry.before_json),
    after: parseSnapshot(entry.after_json),
    approved_by_staff_id: entry.approved_by_staff_id,
    created_at: entry.created_at,
    source_ip: entry.source_ip,
    user_agent: entry.user_agent,
    request_id: entry.request_id,
  };
}

function parseSnapshot(json: string | null): unknown {
  return json === null ? null : (JSON.parse(json) as unknown);
}

/** Rows one CSV response holds at most (each at most ~6 KB quoted, so a response stays under Lambda's 6 MB); the Link names the rest. */
export const MAX_EXPORT_ROWS = 500;

const CSV_COLUMNS = [
  'id',
  'created_at',
  'action',
  'actor',
  'staff_id',
  'role',
  'object_type',
  'object_id',
  'approved_by_staff_id',
  'source_ip',
  'user_agent',
  'request_id',
  'before',
  'after',
] as const;

export interface AuditExport {
  csv: string;
  /** Where the next response starts (the last row's sort key), when more entries of the range may follow. */
  next?: string;
}

/** Up to MAX_EXPORT_ROWS entries of the range as CSV (header first), oldest first, after `cursor`. */
export async function exportAuditLog(merchantId: number, filters: AuditLogFilters, cursor: string | undefined): Promise<AuditExport> {
  // One entry past the page says whether another page holds anything (a range of exactly MAX_EXPORT_ROWS gets no Link).
  const read = await readAuditLog(merchantId, filters, { cursor, limit: MAX_EXPORT_ROWS + 1, ascending: true });
  const shown = read.entries.slice(0, MAX_EXPORT_ROWS);
  const rows = shown.map((entry) => [
    entry.entry_id,
    entry.created_at,
    entry.action,
    entry.actor,
    entry.staff_id,
    entry.role,
    entry.object_type,
    entry.object_id,
    entry.approved_by_staff_id,
    entry.source_ip,
    entry.user_agent,
    entry.request_id,
    entry.before_json,
    entry.after_json,
  ]);
  const last = shown.at(-1);
  const next = read.entries.length > MAX_EXPORT_ROWS && last ? auditPosition(last) : read.resumeAfter;
  return { csv: csvText(CSV_COLUMNS, rows), ...(next === undefined ? {} : { next }) };
}
