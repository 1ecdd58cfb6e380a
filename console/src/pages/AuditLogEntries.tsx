import { useCallback } from 'react';
import { Link } from 'react-router';
import { type components, type LevelUpClient } from '../../../clients/typescript/index.ts';
import { ErrorMessage, Progress } from '../ErrorMessage.tsx';
import { rangeAnswer } from '../exports-download.tsx';
import { formatMoney, formatTime } from '../format.ts';
import { LinkPager, ScrollingTable, nextPosition, useLinkPages, type LinkPage, type PagePosition } from '../tables.tsx';

type Entry = components['schemas']['AuditEntry']['audit_entry'];
export type AuditAction = Entry['action'];
/** Staff members by id, as the entries name them. */
export type StaffNames = Map<number, { name: string; role: string }>;
/** The filters as the page shows them: UTC days, both included; a staff id as the address holds it. */
export interface AuditFilters {
  from?: string;
  to?: string;
  action?: AuditAction;
  staffId?: string;
}

const DAY_MS = 86_400_000;
/** The day after a UTC day: the API's `to` is exclusive, the page's last day is included. */
export const dayAfter = (day: string): string => new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);

/** The filters as the API takes them: `from` a day's start, `to` exclusive (the day after the last one shown). */
export function auditQuery(filters: AuditFilters) {
  return {
    ...(filters.from ? { from: filters.from } : {}),
    ...(filters.to ? { to: dayAfter(filters.to) } : {}),
    ...(filters.action ? { action: filters.action } : {}),
    ...(filters.staffId ? { staff_id: filters.staffId } : {}),
  };
}

/** Each action in words (the API's vocabulary, docs/merchant-api.md "Actions"); the compiler keeps it complete. */
export const ACTIONS: Record<AuditAction, string> = {
  'staff.invited': 'Invited a staff member',
  'staff.first_owner_added': 'Added the first owner',
  'staff.updated': "Changed a staff member's name",
  'staff.role_changed': "Changed a staff member's role",
  'staff.removed': 'Removed a staff member',
  'staff.manager_code_set': 'Set their manager code',
  'location.created': 'Created a location',
  'location.updated': 'Updated a location',
  'location.image_changed': "Changed a location's image",
  'campaign.created': 'Created a campaign',
  'campaign.updated': 'Edited a campaign',
  'campaign.closed': 'Closed a campaign',
  'menu.draft_saved': 'Saved a menu draft',
  'menu.published': 'Published a menu',
  'menu.draft_discarded': 'Discarded a menu draft',
  'customer.campaign_unlocked': 'Unlocked a campaign for a customer',
  'order.refunded': 'Refunded an order',
  'detached_refund.created': 'Gave a detached refund',
  'credit.granted': 'Granted credit',
  'gift_card.value_removed': 'Removed gift card value',
  'webhook_endpoint.created': 'Added a webhook endpoint',
  'webhook_endpoint.secret_rolled': 'Changed a webhook secret',
  'webhook_endpoint.deleted': 'Deleted a webhook endpoint',
};
export const isAction = (value: string | null): value is AuditAction => value !== null && Object.hasOwn(ACTIONS, value);

/** The money actions: someone's code or token approves them (or the shared code, or none was needed). */
const MONEY_ACTIONS: ReadonlySet<AuditAction> = new Set(['order.refunded', 'detached_refund.created', 'credit.granted', 'gift_card.value_removed']);
/** Fields of a before or after shown in one cell, the rest counted (each side is at most 2 KB). */
const SHOWN_FIELDS = 8;
const SHOWN_VALUE_LENGTH = 160;

/** A staff member by name and role when the list has them, else by number (removed since). */
function person(id: number, names: StaffNames, role?: string | null): string {
  const member = names.get(id);
  if (member) return `${member.name} (${member.role})`;
  return role ? `Staff member ${id} (${role})` : `Staff member ${id}`;
}

function actorWords(actor: Entry['actor'], names: StaffNames): string {
  if (actor.kind === 'shared_login') return 'The shared register login';
  if (actor.kind === 'operator') return "The platform's operators";
  return actor.staff_id === null ? 'A staff member' : person(actor.staff_id, names, actor.role);
}

function approverWords(entry: Entry, names: StaffNames): string {
  if (entry.approved_by_staff_id !== null) return person(entry.approved_by_staff_id, names);
  return MONEY_ACTIONS.has(entry.action) ? 'The shared manager code, or none needed' : 'Not needed';
}

/** Where the change came from: the console (a browser), a register or app (its User-Agent), the operators' CLI. */
function sourceWords(entry: Entry): string {
  if (entry.actor.kind === 'operator') return "The operators' command line";
  const agent = entry.user_agent;
  if (!agent) return 'Not recorded';
  if (/^Mozilla\//.test(agent)) return 'A web browser (the console)';
  const shown = agent.length > 60 ? `${agent.slice(0, 60)}…` : agent;
  return entry.actor.kind === 'shared_login' ? `A register (${shown})` : `A register or app (${shown})`;
}

function ObjectWords({ object, names }: { object: Entry['object']; names: StaffNames }) {
  if (object.type === 'order') return <Link to={`/orders/${object.id}`}>Order {object.id.slice(0, 8)}</Link>;
  if (object.type === 'staff' && names.has(Number(object.id))) return <>{person(Number(object.id), names)}</>;
  return (
    <>
      {object.type.replaceAll('_', ' ')} {object.id}
    </>
  );
}

function valueWords(field: string, value: unknown): string {
  if (value === null || value === undefined) return 'none';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number') return field.endsWith('_amount') && Number.isInteger(value) ? formatMoney(value) : String(value);
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > SHOWN_VALUE_LENGTH ? `${text.slice(0, SHOWN_VALUE_LENGTH)}…` : text;
}

/** Before and after, field by field: "state: completed → refunded"; a created object shows its values, a removed one what it was. */
function Changes({ before, after }: { before: Entry['before']; after: Entry['after'] }) {
  const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  if (fields.length === 0) return <>No details</>;
  const shown = fields.slice(0, SHOWN_FIELDS);
  return (
    <ul className="changes">
      {shown.map((field) => {
        const label = field.replaceAll('_', ' ');
        const was = valueWords(field, before?.[field]);
        const is = valueWords(field, after?.[field]);
        return (
          <li key={field}>
            <span className="field">{label}:</span> {before === null ? is : after === null ? `was ${was}` : was === is ? is : `${was} → ${is}`}
          </li>
        );
      })}
      {fields.length > shown.length ? <li>and {fields.length - shown.length} more fields (in the CSV)</li> : null}
    </ul>
  );
}

function captionOf(filters: AuditFilters, names: StaffNames, pageNumber: number): string {
  const { from, to } = filters;
  const range = from && to ? `from ${from} to ${to} (UTC)` : from ? `from ${from} (UTC) on` : to ? `up to ${to} (UTC)` : 'at any time';
  const action = filters.action ? `, action “${ACTIONS[filters.action]}”` : '';
  const who = filters.staffId ? `, done or approved by ${person(Number(filters.staffId), names)}` : '';
  return `Audit log entries ${range}${action}${who}, newest first, page ${pageNumber}`;
}

interface AuditEntriesProps {
  client: LevelUpClient;
  merchantId: number;
  filters: AuditFilters;
  names: StaffNames;
}

/** The pages of one filter (see useLinkPages). */
export function AuditEntries({ client, merchantId, filters, names }: AuditEntriesProps) {
  const { from, to, action, staffId } = filters;
  const fetchPage = useCallback(
    async (position: PagePosition): Promise<LinkPage<Entry>> => {
      const answer = await client.GET('/v15/merchants/{merchant_id}/audit_log', {
        params: { path: { merchant_id: String(merchantId) }, query: { ...auditQuery({ from, to, action, staffId }), ...position } },
      });
      // 204: nothing (more) within the filters.
      if (answer.response.status === 204) return { rows: [], next: undefined };
      return { rows: rangeAnswer(answer).map(({ audit_entry }) => audit_entry), next: nextPosition(answer.response) };
    },
    [client, merchantId, from, to, action, staffId],
  );
  const { pageNumber, error, page, previous, next } = useLinkPages(fetchPage);

  if (error) return <ErrorMessage error={error} />;
  if (!page) return <Progress label="Loading the audit log…" />;
  return (
    <div>
      {page.rows.length === 0 ? (
        <p id="audit-caption">
          {pageNumber === 1 && !page.next
            ? 'No entries for this filter.'
            : page.next
              ? 'No entries in this part of the log. The next page looks further back.'
              : 'No more entries.'}
        </p>
      ) : (
        <ScrollingTable captionId="audit-caption" caption={captionOf(filters, names, pageNumber)} className="audit">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">What</th>
              <th scope="col">Approved by</th>
              <th scope="col">From</th>
              <th scope="col">Before and after</th>
            </tr>
          </thead>
          <tbody>
            {page.rows.map((entry) => (
              <tr key={entry.id}>
                <th scope="row">{formatTime(entry.created_at)}</th>
                <td>{actorWords(entry.actor, names)}</td>
                <td>
                  {ACTIONS[entry.action]}
                  <br />
                  <span className="hint">
                    <ObjectWords object={entry.object} names={names} />
                  </span>
                </td>
                <td>{approverWords(entry, names)}</td>
                <td>
                  {sourceWords(entry)}
                  {entry.source_ip ? (
                    <>
                      <br />
                      <span className="hint">Address {entry.source_ip}</span>
                    </>
                  ) : null}
                  {entry.request_id ? (
                    <>
                      <br />
                      <span className="hint">
                        Request <code>{entry.request_id}</code>
                      </span>
                    </>
                  ) : null}
                </td>
                <td className="changes-cell">
                  <Changes before={entry.before} after={entry.after} />
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollingTable>
      )}
      <LinkPager label="Pages of the audit log" previous={previous} next={next} />
    </div>
  );
}
