import { useCallback, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { allItems, nextPageUrl, type LevelUpClient } from '../../../clients/typescript/index.ts';
import { ErrorMessage, Progress } from '../ErrorMessage.tsx';
import { DownloadStatus, rangeAnswer, useDownload } from '../exports-download.tsx';
import { SelectField } from '../fields.tsx';
import { utcDate } from '../format.ts';
import { useLoaded } from '../loaded.ts';
import { ConsoleError, type PageProps } from '../session.ts';
import { ACTIONS, AuditEntries, auditQuery, dayAfter, isAction, type AuditFilters, type StaffNames } from './AuditLogEntries.tsx';

const DAY_MS = 86_400_000;
/** The range the page opens with: the last 30 UTC days, today included (inside the CSV's 92). */
const DEFAULT_DAYS = 30;
/** The CSV comes in parts of 500 rows; this many parts at most (a bound on the loop, far past a quarter's log). */
const MAX_CSV_PARTS = 200;

const isDay = (value: string | null): value is string => value !== null && /^\d{4}-\d{2}-\d{2}$/.test(value);

/**
 * The merchant's audit log (`GET .../audit_log`, owners and managers; docs/merchant-api.md "Audit log"): filtered by
 * range, action and staff member, paged by its Link, each entry in words. Owners download the same filter as CSV
 * (`GET .../audit_log.csv`, in parts of 500 rows joined here).
 */
export function AuditLog({ client, merchantId, me }: PageProps) {
  return (
    <>
      <h1>Audit log</h1>
      {me.role === 'staff' ? (
        <p>The audit log is for owners and managers. Ask one of them what changed.</p>
      ) : (
        <AuditLogReader client={client} merchantId={merchantId} isOwner={me.role === 'owner'} />
      )}
    </>
  );
}

function AuditLogReader({ client, merchantId, isOwner }: { client: LevelUpClient; merchantId: number; isOwner: boolean }) {
  const [search, setSearch] = useSearchParams();
  const [today] = useState(() => utcDate(Date.now()));
  // Owners and managers both read the staff list: the entries name people, the filter offers them.
  const loadStaff = useCallback(
    () =>
      allItems(client, '/v15/merchants/{merchant_id}/staff', { params: { path: { merchant_id: String(merchantId) } } }).then(
        (entries): StaffNames => new Map(entries.map(({ staff }) => [staff.id, { name: staff.name, role: staff.role }])),
      ),
    [client, merchantId],
  );
  const staff = useLoaded(loadStaff);
  const { state: downloadState, busy, download, fail } = useDownload();

  // The filters live in the address. A missing date is the default; an empty one (`from=`) is no bound.
  const fromParam = search.get('from');
  const toParam = search.get('to');
  const actionParam = search.get('action');
  const staffParam = search.get('staff');
  const filters: AuditFilters = {
    from: fromParam === null ? utcDate(Date.parse(`${today}T00:00:00Z`) - (DEFAULT_DAYS - 1) * DAY_MS) : isDay(fromParam) ? fromParam : undefined,
    to: toParam === null ? today : isDay(toParam) ? toParam : undefined,
    action: isAction(actionParam) ? actionParam : undefined,
    staffId: staffParam !== null && /^[1-9]\d{0,15}$/.test(staffParam) ? staffParam : undefined,
  };

  function applyFilters(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const next = new URLSearchParams();
    for (const name of ['from', 'to', 'action', 'staff']) {
      const value = form.get(name);
      // Dates always: an emptied date field means "no bound", not the default.
      if (typeof value === 'string' && (value !== '' || name === 'from' || name === 'to')) next.set(name, value);
    }
    setSearch(next);
  }

  function downloadCsv() {
    const { from, to } = filters;
    if (!from || !to) {
      fail('Choose a start day and an end day, at most 92 days apart, to download the CSV.');
      return;
    }
    void download(`Building the audit log CSV from ${from} to ${to}… This can take a few seconds.`, async (progress) => {
      const parts: string[] = [];
      let cursor: string | undefined;
      // Named by the days it holds, both included (the API's own name ends with the exclusive bound).
      const name = `audit-log-${from}-${to}.csv`;
      for (let part = 1; part <= MAX_CSV_PARTS; part++) {
        if (part > 1) progress(`Building the audit log CSV from ${from} to ${to}… part ${part}.`);
        const answer = await client.GET('/v15/merchants/{merchant_id}/audit_log.csv', {
          params: { path: { merchant_id: String(merchantId) }, query: { ...auditQuery(filters), from, to: dayAfter(to), ...(cursor ? { cursor } : {}) } },
          parseAs: 'text',
          headers: { Accept: 'text/csv' },
        });
        const text = rangeAnswer(answer);
        if (part === 1) {
          parts.push(text);
        } else {
          // Every part repeats the header row: the file keeps the first.
          const headerEnd = text.indexOf('\r\n');
          parts.push(headerEnd < 0 ? '' : text.slice(headerEnd + 2));
        }
        // The Link names the next part: only its cursor is taken, sent through the typed client to our own origin.
        const link = nextPageUrl(answer.response);
        cursor = link ? (new URL(link, window.location.origin).searchParams.get('cursor') ?? undefined) : undefined;
        if (!cursor) return { blob: new Blob(parts, { type: 'text/csv;charset=utf-8' }), name };
      }
      throw new ConsoleError('This range holds too many entries for one file. Choose a shorter range.', 0, undefined);
    });
  }

  if (staff.error === undefined && staff.data === undefined) return <Progress label="Loading your staff…" />;
  const names: StaffNames = staff.data ?? new Map<number, { name: string; role: string }>();
  const staffOptions = [...names]
    .sort(([, a], [, b]) => a.name.localeCompare(b.name))
    .map(([id, member]) => ({ value: String(id), label: `${member.name} (${member.role})` }));
  // A staff id in the address that the list no longer has (removed) is still offered, by its number.
  if (filters.staffId && !names.has(Number(filters.staffId))) staffOptions.push({ value: filters.staffId, label: `Staff member ${filters.staffId}` });

  return (
    <>
      {staff.error ? <ErrorMessage error={staff.error} /> : null}
      {/* key: the form's fields start from the address again when it changes (back, a link). */}
      <form className="filters" aria-label="Filter the audit log" onSubmit={applyFilters} key={`filters ${search.toString()}`}>
        <label>
          From (UTC day)
          <input type="date" name="from" defaultValue={filters.from ?? ''} />
        </label>
        <label>
          To (UTC day, included)
          <input type="date" name="to" defaultValue={filters.to ?? ''} />
        </label>
        <SelectField
          label="Action"
          name="action"
          defaultValue={filters.action ?? ''}
          options={[{ value: '', label: 'Any action' }, ...Object.entries(ACTIONS).map(([value, label]) => ({ value, label }))]}
        />
        <SelectField
          label="Staff member (did or approved)"
          name="staff"
          defaultValue={filters.staffId ?? ''}
          options={[{ value: '', label: 'Anyone' }, ...staffOptions]}
        />
        <button type="submit">Show entries</button>
      </form>
      <p className="hint">Leave a day empty for no bound. Times are shown in UTC.</p>
      <div className="actions">
        {isOwner ? (
          <button type="button" className="secondary" onClick={downloadCsv} disabled={busy}>
            Download CSV
          </button>
        ) : (
          <p>Owners can download the audit log as a CSV file.</p>
        )}
      </div>
      {isOwner ? <DownloadStatus state={downloadState} /> : null}
      <AuditEntries key={`entries ${search.toString()}`} client={client} merchantId={merchantId} filters={filters} names={names} />
    </>
  );
}
