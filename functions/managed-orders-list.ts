import * as z from '#shared/schemas/zod.ts';
import { apiHandler } from '#shared/http/handler.ts';
import { staffListPage } from '#shared/http/management-lists.ts';
import { cursorQuery, pageQuery } from '#shared/http/paging.ts';
import { isManagedOrdersCursor, listManagedOrders, LOCATION_NOT_FOUND, managedOrderRow } from '#shared/domain/orders/management.ts';
import { merchantOrdersFilters, merchantOrdersParams } from '#shared/schemas/orders-management.ts';

const query = z.object({
  ...merchantOrdersFilters,
  page: pageQuery,
  // Opaque position from a previous page's Link (the last order's place in the location's orders).
  cursor: cursorQuery(isManagedOrdersCursor),
});

/** GET /v15/merchants/:merchant_id/orders (every role): a location's orders, newest first, by day and state; paged by Link, 204 past the end. */
export const handler = apiHandler(
  'managed-orders-list',
  {
    summary: "List a location's orders by day and state (every staff role)",
    description:
      "A location's orders, newest first, 50 a page. `day` (a UTC day) narrows the list to that day; `state` filters one day's orders (no index holds the state, so it needs `day`). See docs/merchant-api.md.",
    paged: true,
    notFound: LOCATION_NOT_FOUND,
    params: merchantOrdersParams,
    query,
  },
  (request) =>
    staffListPage(request, {
      collection: 'orders',
      read: (merchantId, from) => listManagedOrders(merchantId, request.query, from),
      sortKey: (last) => last.position,
      render: (shown) => shown.map((entry) => ({ order: managedOrderRow(entry.order) })),
      filtered: true,
    }),
);
