import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { withIdempotencyKey, type components, type LevelUpClient } from '../../../clients/typescript/index.ts';
import { ErrorMessage, Progress, WhenLoaded } from '../ErrorMessage.tsx';
import { DoneSection } from '../confirm.tsx';
import { formatMoney, formatTime } from '../format.ts';
import { answered, asConsoleError, ConsoleError, type StaffMember } from '../session.ts';

type Order = components['schemas']['ManagedOrder']['order'];

/** Lost races (409) and a busy API (429, 5xx) are sent again with the same Idempotency-Key: the order is refunded once. */
const REFUND_ATTEMPTS = 3;
/** A locked code (429 with a long Retry-After) is shown after a short wait rather than after the whole window. */
const REFUND_MAX_WAIT_MS = 3_000;

/**
 * The merchants whose refunds asked this tab for a manager code (the API's 422 `manager_code_required`, or one of its
 * answers about the code): their confirmation step asks for it at once. The API says whether a code is required; no
 * setting of the merchant is read for it (docs/console.md, "The refund and its approval").
 */
const asksForCode = new Set<number>();
/** The refund's answers that concern the signed-in person's own manager code (docs/merchant-api.md, "Orders"). */
const CODE_ANSWERS = new Set<string>(['manager_code_required', 'manager_code_incorrect', 'manager_code_not_set']);

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
      <WhenLoaded data={order} error={error} progress="Loading the order…">
        {(order) => (
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
      </WhenLoaded>
    </>
  );
}

type Step = 'idle' | 'confirming' | 'refunding';

/**
 * The refund, in steps: ask, confirm, progress, then the refunded order or the error in words. The signed-in owner or
 * manager is recorded as the approver; at a merchant that requires a manager code, the confirmation asks for their
 * own code (the API's answer says so), typed hidden and sent once. Staff are told before they try: the API would
 * answer 403.
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
  // Why the code field shows: the API asked for it (required), refused it (incorrect) or the person has none (not set).
  const [codeAnswer, setCodeAnswer] = useState<string | undefined>(() => (asksForCode.has(merchantId) ? 'manager_code_required' : undefined));
  const [done, setDone] = useState(false);
  const confirmButton = useRef<HTMLButtonElement>(null);
  const codeField = useRef<HTMLInputElement>(null);
  const askCode = codeAnswer === 'manager_code_required' || codeAnswer === 'manager_code_incorrect';

  // Focus follows the step, so a keyboard or screen-reader user lands on what to do or read next.
  useEffect(() => {
    if (step !== 'confirming') return;
    if (askCode) codeField.current?.focus();
    else confirmButton.current?.focus();
  }, [step, askCode, error]);

  async function refund(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const typed = new FormData(event.currentTarget).get('code');
    const code = askCode ? (typeof typed === 'string' ? typed : '') : undefined;
    setStep('refunding');
    setError(undefined);
    // Where the person lands when it fails: the confirmation again after a wrong code, else the start.
    let next: Step = 'idle';
    try {
      const answer = await withIdempotencyKey(
        (key) =>
          client.POST('/v15/merchants/{merchant_id}/orders/{uuid}/refund', {
            params: { path: { merchant_id: String(merchantId), uuid: order.uuid }, header: { 'Idempotency-Key': key } },
            body: code === undefined ? {} : { refund: { manager_confirmation: code } },
          }),
        { attempts: REFUND_ATTEMPTS, maxDelayMs: REFUND_MAX_WAIT_MS },
      );
      const answeredCode: string | undefined = answer.error?.[0]?.error.code;
      if (answer.response.status === 422 && answeredCode && CODE_ANSWERS.has(answeredCode)) {
        asksForCode.add(merchantId);
        setCodeAnswer(answeredCode);
        // "Required" is the question itself, not an error: the confirmation now asks for the code.
        if (answeredCode === 'manager_code_required') {
          setStep('confirming');
          return;
        }
        if (answeredCode === 'manager_code_incorrect') next = 'confirming';
      }
      if (answer.response.status === 429 && answeredCode === 'manager_confirmation_locked') {
        throw new ConsoleError(
          'Too many wrong manager codes for this order: its refund is locked for a while. Try again later.',
          429,
          answer.response.headers.get('X-Request-Id') ?? undefined,
        );
      }
      onRefunded(answered(answer).order);
      setDone(true);
    } catch (failure) {
      setError(asConsoleError(failure));
    }
    setStep(next);
  }

  if (order.state === 'refunded') {
    const approver = order.refund?.approved_by_staff_id;
    return (
      <DoneSection id="refund-heading" heading="Refunded" now={done}>
        {done ? 'The order is refunded. ' : ''}
        {order.refunded_at ? `Refunded ${formatTime(order.refunded_at)}. ` : ''}
        {approver === me.id ? 'Approved by you.' : approver ? `Approved by staff member ${approver}.` : 'Approved at the register.'}
      </DoneSection>
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
        <form className="confirm" aria-label="Confirm the refund" onSubmit={(event) => void refund(event)}>
          <p>
            Refund {formatMoney(order.total_amount)} to {order.user_display_name}? It cannot be undone. You will be recorded as the person who approved it.
          </p>
          {askCode ? (
            <>
              <p id="code-why">This merchant asks for your own manager code to approve a refund.</p>
              <ErrorMessage error={error} />
              <label htmlFor="refund-code">Your manager code</label>
              <input
                id="refund-code"
                ref={codeField}
                name="code"
                type="password"
                inputMode="numeric"
                pattern="[0-9]{4,8}"
                minLength={4}
                maxLength={8}
                required
                autoComplete="off"
                aria-describedby="code-why"
              />
            </>
          ) : null}
          <div className="actions">
            <button type="submit" ref={confirmButton}>
              Yes, refund {formatMoney(order.total_amount)}
            </button>
            <button type="button" className="secondary" onClick={() => setStep('idle')}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <>
          <ErrorMessage error={error} />
          {codeAnswer === 'manager_code_not_set' ? (
            <p>
              <Link to="/staff">Set your manager code on the Staff page</Link>, then refund.
            </p>
          ) : askCode ? (
            <p>Your own manager code approves the refund.</p>
          ) : (
            <p>Your sign-in approves the refund; if this merchant asks for a manager code, you will be asked for your own.</p>
          )}
          <button
            type="button"
            onClick={() => {
              setError(undefined);
              setStep('confirming');
            }}
          >
            Refund this order
          </button>
        </>
      )}
    </section>
  );
}
