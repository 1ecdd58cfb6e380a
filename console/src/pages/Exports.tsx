import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { rangeAnswer, DownloadStatus, fileNameOf, useDownload } from '../exports-download.tsx';
import { utcDate } from '../format.ts';
import type { PageProps } from '../session.ts';

const DAY_MS = 86_400_000;
/** The range a page opens with: the last seven UTC days, today included. */
const DEFAULT_DAYS = 7;

type Subject = 'orders' | 'ledger';
const SUBJECTS: Record<Subject, { title: string; columns: string }> = {
  orders: {
    title: 'orders',
    columns:
      'order_uuid, created_at, location_id, state, spend_amount, tip_amount, tax_amount, exemption_amount, applied_discount_amount, gift_card_total_amount, charged_amount, credit_earned_amount, refunded_at, cashier, register, identifier_from_merchant',
  },
  ledger: {
    title: 'ledger',
    columns: 'created_at, account, entry_id, kind, amount, contra_account, transfer_id, reference',
  },
};
const isSubject = (value: unknown): value is Subject => value === 'orders' || value === 'ledger';

/**
 * The orders and ledger CSVs of a range of UTC days (`GET .../exports/orders.csv`, `.../exports/ledger.csv`; owners
 * and managers; docs/merchant-api.md "Reports and exports"). The API checks the range (at most 92 days, 10,000 rows)
 * and the page says its refusal in words.
 */
export function Exports({ client, merchantId, me }: PageProps) {
  const [today] = useState(() => utcDate(Date.now()));
  const { state, busy, download } = useDownload();

  function exportRange(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const subject = submitter instanceof HTMLButtonElement ? submitter.value : undefined;
    const from = form.get('from');
    const to = form.get('to');
    if (!isSubject(subject) || typeof from !== 'string' || typeof to !== 'string') return;
    void download(`Building the ${SUBJECTS[subject].title} CSV from ${from} to ${to}… This can take a few seconds.`, async () => {
      const query = { params: { path: { merchant_id: String(merchantId) }, query: { from, to } }, parseAs: 'blob' as const, headers: { Accept: 'text/csv' } };
      const answer =
        subject === 'orders'
          ? await client.GET('/v15/merchants/{merchant_id}/exports/orders.csv', query)
          : await client.GET('/v15/merchants/{merchant_id}/exports/ledger.csv', query);
      return { blob: rangeAnswer(answer), name: fileNameOf(answer.response, `${subject}-${from}-${to}.csv`) };
    });
  }

  return (
    <>
      <h1>Exports</h1>
      {me.role === 'staff' ? (
        <p>Exports are for owners and managers. Ask one of them for a file.</p>
      ) : (
        <>
          <p>
            Download the orders or the ledger of a range of days as a CSV file for a spreadsheet or your accounting. Days are UTC dates, both included: at most
            92 days, and at most 10,000 rows in one file.
          </p>
          <form className="filters" aria-label="Export a range of days" onSubmit={exportRange}>
            <label>
              From (UTC day)
              <input type="date" name="from" defaultValue={utcDate(Date.parse(`${today}T00:00:00Z`) - (DEFAULT_DAYS - 1) * DAY_MS)} required />
            </label>
            <label>
              To (UTC day, included)
              <input type="date" name="to" defaultValue={today} required />
            </label>
            <div className="actions">
              <button type="submit" name="subject" value="orders" disabled={busy}>
                Download the orders CSV
              </button>
              <button type="submit" name="subject" value="ledger" disabled={busy}>
                Download the ledger CSV
              </button>
            </div>
          </form>
          <DownloadStatus state={state} />
          <h2>What each file holds</h2>
          <dl className="export-columns">
            <dt>Orders: one row per order made in the range, oldest first</dt>
            <dd>
              <code>{SUBJECTS.orders.columns}</code>
            </dd>
            <dt>Ledger: one row per customer-side ledger entry, oldest first</dt>
            <dd>
              <code>{SUBJECTS.ledger.columns}</code>
            </dd>
          </dl>
          <p>
            Amounts are in cents. A text cell that a spreadsheet would run as a formula starts with an apostrophe.{' '}
            {me.role === 'owner' ? (
              <>
                The audit log&apos;s CSV is on the <Link to="/audit_log">Audit log</Link> page.
              </>
            ) : (
              'The audit log’s CSV is for owners.'
            )}
          </p>
        </>
      )}
    </>
  );
}
