/**
 * Completion as clients see it (docs/order-ahead.md, "Completion"): POST order_completion_url hands the
 * validated order to the completion workflow and answers at once; the client polls the order_url it is
 * given until the workflow has an outcome.
 *
 * - submitCompletion (the POST): `externally_valid` -> `submitting`, once, and starts the workflow
 *   execution named after the order (starting it again is harmless, so a repeated or concurrent POST
 *   answers the same status and never a second charge).
 * - pollCompletion (GET order_url): the order as it stands; past the completion deadline (the workflow
 *   died) the order is rejected here, by the workflow's own reject step.
 */
import { notFound, serviceUnavailable, unprocessable, type ErrorDetail } from '#shared/errors.ts';
import { log } from '#shared/log.ts';
import { epochSeconds, isoSeconds } from '#shared/time.ts';
import { startCompletion } from '#shared/workflows/executions.ts';
import { COMPLETION_FAILED, rejectOrder } from './fulfilment.ts';
import { COMPLETION_DEADLINE_SECONDS, getUsersOrder, transitionUsersOrder, type OrderAheadRecord } from './orders.ts';
import { completedOrderUrl } from './serialize.ts';

export { completedOrderUrl, serializeCompletedOrder } from './serialize.ts';

const NOT_READY = () =>
  unprocessable('order', 'base', 'This order cannot be completed: it is still being checked or was not valid. Start it again.', 'not_completable');

/** The reason a rejected order gives, as one sentence for the 422 of a repeated POST. */
function rejectedAlready(errors: readonly ErrorDetail[]) {
  return unprocessable(
    'order',
    'base',
    `This order was rejected and cannot be completed: ${errors.map((error) => error.message).join(' ')} Start a new order.`,
    'rejected',
  );
}

/** States the workflow is still working in: the poll answers 202. */
export const IN_PROGRESS_STATES = new Set(['submitting', 'charging', 'submitted']);

/**
 * POST order_completion_url. Throws 404 (not the caller's), 422 (not valid, or rejected), 503 (the workflow
 * could not be started). One conditional write moves the caller's valid order to `submitting`; when it does
 * not hold, the order as it stood comes back with the failure and says what to answer.
 */
export async function submitCompletion(uuid: string, userId: number, now: Date = new Date()): Promise<Pick<OrderAheadRecord, 'uuid' | 'state'>> {
  const submitted = await transitionUsersOrder(uuid, userId, ['externally_valid'], 'submitting', {
    submitted_at: isoSeconds(now),
    completion_deadline: epochSeconds(now) + COMPLETION_DEADLINE_SECONDS,
  });
  // Not valid (yet), or another request submitted it first: answer as that one did.
  const order: Pick<OrderAheadRecord, 'uuid' | 'state' | 'rejection' | 'user_id'> | undefined = submitted.moved
    ? { uuid, state: 'submitting', user_id: userId }
    : submitted.current;
  if (!order || order.user_id !== userId) throw notFound();
  switch (order.state) {
    case 'externally_validating':
    case 'externally_invalid':
      throw NOT_READY();
    case 'rejected':
      throw rejectedAlready(order.rejection?.errors ?? [COMPLETION_FAILED]);
    case 'submitting':
      // Until the workflow takes it (`charging`), every POST (re)starts the one execution of this order:
      // a start lost after the state changed is made good by the client's retry.
      try {
        await startCompletion({ order_uuid: uuid });
      } catch (error) {
        log('error', 'order ahead completion did not start', { order_uuid: uuid, error: (error as Error).message });
        throw serviceUnavailable(
          'order',
          'Orders cannot be completed right now. Please try again in a moment; you have not been charged.',
          'completion_unavailable',
          5,
        );
      }
      return order;
    default:
      return order;
  }
}

export type CompletionPoll =
  { kind: 'in_progress'; order: OrderAheadRecord } | { kind: 'completed'; order: OrderAheadRecord } | { kind: 'rejected'; errors: ErrorDetail[] };

/**
 * GET order_url of a submitted order. 404 for an order never submitted (there is no completion to show)
 * and for anyone else's order.
 */
export async function pollCompletion(uuid: string, userId: number, now: Date = new Date()): Promise<CompletionPoll | undefined> {
  let order = await getUsersOrder(uuid, userId);
  if (IN_PROGRESS_STATES.has(order.state) && order.completion_deadline !== undefined && epochSeconds(now) > order.completion_deadline) {
    // The workflow has its own timeout and a Reject step with retries; this covers an execution that never
    // ran or died (the client must never see 202 forever). Same step, so a charge is reversed first.
    log('error', 'order ahead completion abandoned by its workflow', { order_uuid: uuid, state: order.state });
    try {
      order = await rejectOrder(uuid, [COMPLETION_FAILED]);
    } catch (error) {
      // A settlement still holds the order (or a write failed): still in progress; the next poll tries again.
      log('warn', 'order ahead completion not yet rejectable', { order_uuid: uuid, error: (error as Error).message });
    }
  }
  if (IN_PROGRESS_STATES.has(order.state)) return { kind: 'in_progress', order };
  if (order.state === 'completed') return { kind: 'completed', order };
  if (order.state === 'rejected') return { kind: 'rejected', errors: order.rejection?.errors ?? [COMPLETION_FAILED] };
  return undefined;
}

/** The completion status clients parse (O3): where to poll, the state, the uuid. */
export function serializeCompletionStatus(order: Pick<OrderAheadRecord, 'uuid' | 'state'>, baseUrl: string) {
  return { order: { order_url: completedOrderUrl(baseUrl, order.uuid), state: order.state, uuid: order.uuid } };
}
