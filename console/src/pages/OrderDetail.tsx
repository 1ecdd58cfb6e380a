import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { withIdempotencyKey, type components, type LevelUpClient } from '../../../clients/typescript/index.ts';
import { ErrorMessage, Progress } from '../ErrorMessage.tsx';
import { formatMoney, formatTime } from '../format.ts';
import { answered, asConsoleError, type ConsoleError, type StaffMember } from '../session.ts';

type Order = components['schemas']['ManagedOrder']['order'];

/** Lost races (409) and a busy API (429, 5xx) are sent again with the same Idempotency-Key: the order is refunded once. */
const REFUND_ATTEMPTS = 3;

/** One order in detail, and its refund for owners and managers (docs/merchant-api.md, "Orders"). */
export function OrderDetail({ client, merchantId, me }: { client: LevelUpClient; merchantId: number; me: StaffMember }) {
  const { uuid = '' } = useParams();
  const from = useLocation().state as { list?: unknown } | null;
  const listHref = typeof from?.list === 'string' && from.list !== '' ? `/orders?${from.list}` : '/orders';
  const [order, setOrder] = useState<Order>();
  const [error, setError] = useState<ConsoleError>();

  useEffect(() => {
    let current = true;
    client
      .GET('/v15/merchants/{merchant_id}/orders/{uuid}/details', { params: { path: { merchant_id: String(merchantId), uuid } } })
      .then((answer) => {
        if (current) setOrder(answered(answer).order);
      })
      .catch((failure: unknown) => {
        if (current) setError(asConsoleError(failure));
      });
    return () => {
      current = false;
    };
  }, [client, merchantId, uuid]);

  return (
    <>
      <p>
        <Link to={listHref}>Back to the orders</Link>
      </p>
      <h1>Order</h1>
      {error ? (
        <ErrorMessage error={error} />
      ) : !order ? (
        <Progress label="Loading the order…" />
      ) : (
        <>
          <dl className="facts">
            <dt>Customer</dt>
            <dd>{order.user_display_name}</dd>
            <dt>Location</dt>
            <dd>{order.location_name ?? `Location ${order.location_id}`}</dd>
            <dt>Time</dt>
            <dd>{formatTime(order.created_at)}</dd>
            <dt>State</dt>
            <dd>{order.state === 'refunded' ? 'Refunded' : 'Completed'}</dd>
            <dt>Sale</dt>
            <dd>{formatMoney(order.spend_amount)}</dd>
            <dt>Tip</dt>
            <dd>{formatMoney(order.tip_amount)}</dd>
            <dt>Total</dt>
            <dd>{formatMoney(order.total_amount)}</dd>
            <dt>Charged to the card</dt>
            <dd>{formatMoney(order.charged_amount)}</dd>
            <dt>Gift card used</dt>
            <dd>{formatMoney(order.gift_card_total_amount)}</dd>
            <dt>Credit used</dt>
            <dd>{formatMoney(order.credit_applied_amount)}</dd>
            <dt>Register</dt>
            <dd>{order.register ?? 'Not given'}</dd>
            <dt>Cashier</dt>
            <dd>{order.cashier ?? 'Not given'}</dd>
            <dt>Reference</dt>
            <dd>
              <code>{order.uuid}</code>
            </dd>
          </dl>
          <Refund client={client} merchantId={merchantId} me={me} order={order} onRefunded={setOrder} />
        </>
      )}
    </>
  );
}

type Step = 'idle' | 'confirming' | 'refunding';

/**
 * The refund, in steps: ask, confirm, progress, then the refunded order or the error in words. The signed-in owner's
 * or manager's own token is the approval (they are recorded as the approver); no code is asked. Staff are told
 * before they try: the API would answer 403.
 */
function Refund({
  client,
  merchantId,
  me,
  order,
  onRefunded,
}: {
  client: LevelUpClient;
  merchantId: number;
  me: StaffMember;
  order: Order;
  onRefunded: (order: Order) => void;
}) {
  const [step, setStep] = useState<Step>('idle');
  const [error, setError] = useState<ConsoleError>();
  const [done, setDone] = useState(false);
  const confirmButton = useRef<HTMLButtonElement>(null);
  const resultHeading = useRef<HTMLHeadingElement>(null);

  // Focus follows the step, so a keyboard or screen-reader user lands on what to do or read next.
  useEffect(() => {
    if (step === 'confirming') confirmButton.current?.focus();
  }, [step]);
  useEffect(() => {
    if (done) resultHeading.current?.focus();
  }, [done]);

  async function refund() {
    setStep('refunding');
    setError(undefined);
    try {
      const answer = await withIdempotencyKey(
        (key) =>
          client.POST('/v15/merchants/{merchant_id}/orders/{uuid}/refund', {
            params: { path: { merchant_id: String(merchantId), uuid: order.uuid }, header: { 'Idempotency-Key': key } },
            body: {},
          }),
        { attempts: REFUND_ATTEMPTS },
      );
      onRefunded(answered(answer).order);
      setDone(true);
    } catch (failure) {
      setError(asConsoleError(failure));
    } finally {
      setStep('idle');
    }
  }

  if (order.state === 'refunded') {
    const approver = order.refund?.approved_by_staff_id;
    return (
      <section aria-labelledby="refund-heading">
        <h2 id="refund-heading" ref={resultHeading} tabIndex={-1}>
          Refunded
        </h2>
        <p role={done ? 'status' : undefined}>
          {done ? 'The order is refunded. ' : ''}
          {order.refunded_at ? `Refunded ${formatTime(order.refunded_at)}. ` : ''}
          {approver === me.id ? 'Approved by you.' : approver ? `Approved by staff member ${approver}.` : 'Approved at the register.'}
        </p>
      </section>
    );
  }

  return (
    <section aria-labelledby="refund-heading">
      <h2 id="refund-heading">Refund</h2>
      {me.role === 'staff' ? (
        <p>Refunds are for owners and managers. Ask one of them to refund this order.</p>
      ) : step === 'refunding' ? (
        <Progress label="Refunding the order…" />
      ) : step === 'confirming' ? (
        <div className="confirm">
          <p>
            Refund {formatMoney(order.total_amount)} to {order.user_display_name}? It cannot be undone. You will be recorded as the person who approved it.
          </p>
          <div className="actions">
            <button type="button" ref={confirmButton} onClick={() => void refund()}>
              Yes, refund {formatMoney(order.total_amount)}
            </button>
            <button type="button" className="secondary" onClick={() => setStep('idle')}>
              Cancel
            </button>
          </div>
        </div>
      ) : (
        <>
          <ErrorMessage error={error} />
          <p>Your sign-in approves the refund: no manager code is needed.</p>
          <button type="button" onClick={() => setStep('confirming')}>
            Refund this order
          </button>
        </>
      )}
    </section>
  );
}
