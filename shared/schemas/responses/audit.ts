/** What the audit log answers (the requests: shared/schemas/audit.ts; docs/merchant-api.md, "Audit log"). */
import * as z from '#shared/schemas/zod.ts';
import { AUDIT_ACTIONS } from '#shared/schemas/audit.ts';
import { integerId, timestamp } from './common.ts';
import { resource } from './registry.ts';

const snapshot = z
  .nullable(z.record(z.string(), z.unknown()))
  .check(z.describe('The object as it was (before) or became (after), at most 2 KB of JSON, never a secret'));

export const auditEntryResponse = resource('AuditEntry', 'audit_entry', {
  id: z.string().check(z.describe('Sorts by time: the instant (ISO, UTC, ms) and 12 hex digits')),
  merchant_id: integerId,
  action: z.enum(AUDIT_ACTIONS),
  actor: z.object({
    kind: z.enum(['staff', 'shared_login', 'operator']),
    staff_id: z.nullable(integerId),
    // The roles of shared/routes.ts STAFF_ROLES (schemas import no route table).
    role: z.nullable(z.enum(['owner', 'manager', 'staff'])),
  }),
  object: z.object({ type: z.string(), id: z.string() }),
  before: snapshot,
  after: snapshot,
  approved_by_staff_id: z
    .nullable(integerId)
    .check(z.describe("A money action: the staff member whose manager code or own token approved it; null: the merchant's shared code, or none needed")),
  created_at: timestamp,
  source_ip: z.nullable(z.string()),
  user_agent: z.nullable(z.string()),
  request_id: z.nullable(z.string()),
});

export const auditEntryList = z.array(auditEntryResponse);

export const auditLogCsv = z.string().check(z.meta({ contentMediaType: 'text/csv' }));
