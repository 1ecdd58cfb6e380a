/** The audit log and manager codes of the management API (docs/merchant-api.md, "Audit log", "Manager codes"): the requests and the action vocabulary. */
import * as z from '#shared/schemas/zod.ts';
import { merchantParams } from './pos-money.ts';
import { optionalQuery, positiveInteger } from './params.ts';

export { merchantParams as auditLogParams };

/**
 * What an audit entry says happened: `<object>.<past tense>`, closed (a filter naming another is a 422). Management
 * changes and every money action a merchant's staff approves; docs/merchant-api.md lists who writes each.
 */
export const AUDIT_ACTIONS = [
  'staff.invited',
  'staff.first_owner_added',
  'staff.updated',
  'staff.role_changed',
  'staff.removed',
  'staff.manager_code_set',
  'location.created',
  'location.updated',
  'location.image_changed',
  'campaign.created',
  'campaign.updated',
  'campaign.closed',
  'menu.draft_saved',
  'menu.published',
  'menu.draft_discarded',
  'customer.campaign_unlocked',
  'order.refunded',
  'detached_refund.created',
  'credit.granted',
  'gift_card.value_removed',
  'webhook_endpoint.created',
  'webhook_endpoint.secret_rolled',
  'webhook_endpoint.deleted',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Longest span one CSV export covers (a quarter); a longer one is refused, not cut. */
export const MAX_EXPORT_DAYS = 92;

/** A date or an instant in a query: `2026-12-01` or ISO 8601 with its offset; the instant it names, ISO in UTC. */
const instantQuery = z.pipe(
  z.string().check(
    z.maxLength(40),
    z.regex(/^\d{4}-\d\d-\d\d(T\d\d:\d\d(:\d\d(\.\d{1,3})?)?(Z|[+-]\d\d:\d\d))?$/, 'must be a date (YYYY-MM-DD) or an ISO 8601 time with its offset'),
    z.refine((value) => !Number.isNaN(Date.parse(value)), 'is not a real date'),
  ),
  z.transform((value) => new Date(Date.parse(value)).toISOString()),
);

export type AuditLogFilters = { from?: string; to?: string; action?: AuditAction; staff_id?: number };

const filters = {
  /** From this instant on (a date: its start, UTC). */
  from: optionalQuery(instantQuery),
  /** Before this instant (a date: its start, so `to=2026-12-02` ends with the 1st). */
  to: optionalQuery(instantQuery),
  action: optionalQuery(z.enum(AUDIT_ACTIONS, { message: 'is not an audit action (docs/merchant-api.md, "Audit log")' })),
  staff_id: optionalQuery(positiveInteger('must be a staff id')),
};

function fromBeforeTo(query: { from?: string; to?: string }, context: z.core.$RefinementCtx): void {
  if (query.from !== undefined && query.to !== undefined && query.from >= query.to) {
    context.addIssue({ code: 'custom', path: ['to'], message: 'must be after from' });
  }
}

/** GET /v15/merchants/:merchant_id/audit_log?from&to&action&staff_id: the filters (the function adds the paging, shared/http/paging.ts). */
export const auditLogFilters = filters;
export const auditLogFiltersInOrder = z.superRefine(fromBeforeTo);

/** GET /v15/merchants/:merchant_id/audit_log.csv?from&to&action&staff_id: the filters, both dates required (the function adds the cursor). */
export const auditExportFilters = { ...filters, from: instantQuery, to: instantQuery };

/** The export's range: `to` after `from`, at most MAX_EXPORT_DAYS later. */
export const auditExportRange = z.superRefine((query: { from: string; to: string }, context) => {
  fromBeforeTo(query, context);
  if (Date.parse(query.to) - Date.parse(query.from) > MAX_EXPORT_DAYS * 86_400_000) {
    context.addIssue({ code: 'custom', path: ['to'], message: `must be at most ${MAX_EXPORT_DAYS} days after from` });
  }
});

/** Digits only: what a POS keypad types. */
export const MANAGER_CODE_PATTERN = /^\d{4,8}$/;

/** PUT /v15/merchants/:merchant_id/staff/me/manager_code */
export const managerCodeBody = z.object({
  manager_code: z.object({
    code: z.string().check(z.regex(MANAGER_CODE_PATTERN, 'must be 4 to 8 digits')),
  }),
});
