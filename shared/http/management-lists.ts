/**
 * A list of the management API (docs/merchant-api.md), the shape its list routes repeat: the token's staff
 * member reads their own merchant's items, page by page by cursor (pageAnswer: 200 with the next Link, 204
 * past the end). The handler keeps only its read and view. Apart from shared/http/management.ts (its writes)
 * so that a list does not reach the Idempotency-Key adapter, which the OpenAPI document reads as honouring the key.
 */
import * as z from '#shared/schemas/zod.ts';
import { requireStaff } from '#shared/http/admission.ts';
import { apiHandler } from '#shared/http/handler.ts';
import { carriedPosition, cursorQuery, encodeCursor, pageAnswer, pageQuery, requireReachablePage } from '#shared/http/paging.ts';
import type { ApiRequest } from '#shared/http/request.ts';
import type { ApiResponse } from '#shared/http/response.ts';

/** Where one page of a management list starts: the decoded cursor of the previous page's Link, and the page number. */
export interface ListFrom {
  cursor?: string;
  page: number;
}

/** A list of the management API (docs/merchant-api.md): how it reads a page and shows it. */
export interface StaffList<T> {
  /** The list's last path segment under `/v15/merchants/{merchant_id}/` (the next page's Link). */
  collection: string;
  read: (merchantId: number, from: ListFrom) => Promise<readonly T[]>;
  /** The sort key the next page starts after, from this page's last item. */
  sortKey: (last: T) => string;
  render: (items: readonly T[]) => unknown[];
  /** The list's filters in its query (orders by location and day): the next page's Link carries them as sent. */
  filtered?: boolean;
}

/** One page of a management list of the token's staff member's merchant, paged by cursor: 200 with the next Link, 204 past the end. */
export async function staffListPage<T>(request: ApiRequest<unknown, { page?: number; cursor?: string }, unknown>, list: StaffList<T>): Promise<ApiResponse> {
  const actor = requireStaff(request);
  requireReachablePage(request.query);
  const page = request.query.page ?? 1;
  const items = await list.read(actor.merchantId, { cursor: request.query.cursor, page });
  const path = `/v15/merchants/${actor.merchantId}/${list.collection}`;
  const carried = list.filtered ? request.event.queryStringParameters : undefined;
  return pageAnswer(
    request.baseUrl,
    { items, after: (last) => carriedPosition(carried, path, { page: String(page + 1), cursor: encodeCursor(list.sortKey(last)) }) },
    list.render,
  );
}

/**
 * The handler of a management list route: `page`, and the opaque `cursor` of a previous page's Link (base64url of
 * the sort key the page ended on, which `isSortKey` checks once decoded); 200 with the next Link, 204 past the end.
 */
export function staffListHandler<T, TParams extends z.ZodMiniType>(
  handlerName: string,
  docs: { summary: string; description?: string; params: TParams },
  list: StaffList<T> & { isSortKey: (decoded: string) => boolean },
) {
  const query = z.object({ page: pageQuery, cursor: cursorQuery(list.isSortKey) });
  return apiHandler(handlerName, { ...docs, paged: true, query }, (request) => staffListPage(request, list));
}
