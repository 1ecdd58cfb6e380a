/**
 * A write of the management API (docs/merchant-api.md), the shape its create, update and close routes repeat:
 * the staff member of the token writes to their own merchant, with the request's audit context, and the
 * answer is stored in the write's own transaction. The handler keeps only its spec, view and domain call.
 * (Its lists: shared/http/management-lists.ts.)
 */
import { auditContextOf, type StaffWrite } from '#shared/domain/audit/audit-log.ts';
import { requireStaff } from '#shared/http/admission.ts';
import { apiHandler, type Output } from '#shared/http/handler.ts';
import { idempotentCommit } from '#shared/http/idempotency.ts';
import type { InputSchemas } from '#shared/http/inputs.ts';
import type { ApiRequest } from '#shared/http/request.ts';
import type * as z from '#shared/schemas/zod.ts';

/** A management write route's spec: its inputs (a body and its path; no query) and the API docs' summary and description. */
type StaffWriteSpec<TBody extends z.ZodMiniType, TParams extends z.ZodMiniType> = InputSchemas<TBody, z.ZodMiniType<undefined>, TParams> & {
  summary: string;
  description?: string;
};

/**
 * The handler of a management write route: parse (`spec`: body and path, 4xx before anything is read), authorize
 * (the route table's roles, then the token's staff member), the domain's `write` for their own merchant (with the
 * audit context and the Put of its stored answer), and respond 200 with `view(result)`, the answer stored in the
 * write's own transaction so that the same Idempotency-Key answers it again (idempotentCommit).
 */
export function staffWriteHandler<TBody extends z.ZodMiniType, TParams extends z.ZodMiniType, T>(
  handlerName: string,
  spec: StaffWriteSpec<TBody, TParams>,
  view: (result: T) => unknown,
  write: (request: ApiRequest<Output<TBody>, undefined, Output<TParams>>, staff: StaffWrite<T>) => Promise<T>,
) {
  return apiHandler<TBody, z.ZodMiniType<undefined>, TParams>(handlerName, spec, (request) => {
    const actor = requireStaff(request);
    const context = auditContextOf(request);
    return idempotentCommit(request, view, (storeResponse) => write(request, { actor, context, storeResponse }));
  });
}
