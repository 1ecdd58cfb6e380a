/**
 * A write of the management API (docs/merchant-api.md), the shape its create, update and close routes repeat:
 * the staff member of the token writes to their own merchant, with the request's audit context, and the
 * answer is stored in the write's own transaction. The handler keeps only its domain call and view.
 * (Its lists: shared/http/management-lists.ts.)
 */
import type { StaffActor } from '#shared/auth/roles.ts';
import type { TransactItem } from '#shared/db/transactions.ts';
import { auditContextOf, type AuditContext } from '#shared/domain/audit/audit-log.ts';
import { requireStaff } from '#shared/http/admission.ts';
import { idempotentCommit } from '#shared/http/idempotency.ts';
import type { ApiRequest } from '#shared/http/request.ts';
import type { ApiResponse } from '#shared/http/response.ts';

/** What a management write gets: who writes, the audit context of the request, and the Put of its stored answer. */
export interface StaffWrite<T> {
  actor: StaffActor;
  context: AuditContext;
  storeResponse: (result: T) => TransactItem | undefined;
}

/** A management write by the staff member, answered 200 with `view(result)` and stored in the write's own transaction (idempotentCommit). */
export async function staffCommit<T>(
  request: ApiRequest<unknown, unknown, unknown>,
  view: (result: T) => unknown,
  work: (write: StaffWrite<T>) => Promise<T>,
): Promise<ApiResponse> {
  const actor = requireStaff(request);
  const context = auditContextOf(request);
  return idempotentCommit(request, view, (storeResponse) => work({ actor, context, storeResponse }));
}
