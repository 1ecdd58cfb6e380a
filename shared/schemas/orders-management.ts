/** The merchant's orders through the management API (docs/merchant-api.md, "Orders"): paths and the list's filters. */
import * as z from '#shared/schemas/zod.ts';
import { optionalQuery, pathId } from '#shared/schemas/params.ts';
import { calendarDate } from '#shared/schemas/reports.ts';

/** `/v15/merchants/{merchant_id}/orders` */
export const merchantOrdersParams = z.object({ merchant_id: pathId });
/** `/v15/merchants/{merchant_id}/orders/{uuid}/details` and `/refund` (the POS's `orders/{uuid}` names the same segment) */
export const merchantOrderParams = z.object({ merchant_id: pathId, uuid: z.string().check(z.minLength(1), z.maxLength(64)) });

/** The states an order has (shared/domain/orders/record.ts). */
export const ORDER_STATES = ['completed', 'refunded'] as const;

/**
 * The list's filters. Orders are indexed per location by creation time (gsi2), so `location_id` is required and
 * `day` narrows the same Query to one UTC day; no index holds an order's state, so `state` filters only within a
 * day (a bounded read), never the location's whole history.
 */
export const merchantOrdersFilters = {
  location_id: z.pipe(z.string().check(z.regex(/^[1-9]\d{0,14}$/, 'must be a location id')), z.transform(Number)),
  day: optionalQuery(calendarDate),
  state: optionalQuery(z.enum(ORDER_STATES)),
};
