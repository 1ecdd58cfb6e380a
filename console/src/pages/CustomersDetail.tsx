import { useCallback, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { allItems, newIdempotencyKey, withIdempotencyKey, type components, type LevelUpClient } from '../../../clients/typescript/index.ts';
import { dollarsToCents, formText } from '../customers-form.ts';
import { ConfirmStep, ResultLine } from '../confirm.tsx';
import { ErrorMessage, Progress, WhenLoaded } from '../ErrorMessage.tsx';
import { ColumnHeadings, ScrollingTable } from '../tables.tsx';
import { SelectField } from '../fields.tsx';
import { formatMoney, formatTime } from '../format.ts';
import { useLoaded } from '../loaded.ts';
import { useWrite } from '../write.ts';
import { answered, asConsoleError, ConsoleError, type PageProps, type StaffMember } from '../session.ts';

type Customer = components['schemas']['MerchantCustomer']['customer'];
type CustomerCampaign = Customer['campaigns'][number];

/** How the customer was found, carried in the history entry (never the address) to name them on their page. */
export interface FoundBy {
  by: 'email' | 'phone';
  value: string;
}

/** Lost races (409) and a busy API (429, 5xx) are sent again with the same Idempotency-Key: a grant happens once. */
const WRITE_ATTEMPTS = 3;

/** What one grant may give, as the API bounds it (docs/merchant-api.md, "Customers"): 1 cent to $500. */
const GRANT_MIN_CENTS = 1;
const GRANT_MAX_CENTS = 50_000;
const REASON_MAX = 1000;
const DAY_SECONDS = 86_400;
const EXPIRIES = [
  { value: String(30 * DAY_SECONDS), label: '30 days' },
  { value: String(90 * DAY_SECONDS), label: '90 days' },
  { value: String(365 * DAY_SECONDS), label: '1 year' },
  { value: String(2 * 365 * DAY_SECONDS), label: '2 years' },
] as const;
const DEFAULT_EXPIRY = EXPIRIES[2].value;

const KINDS: Record<CustomerCampaign['kind'], string> = {
  spend: 'Spend',
  item: 'Items bought',
  visit: 'Visits',
  item_gift_card: 'Items (gift card)',
  spend_gift_card: 'Spend (gift card)',
  custom_progress: 'Custom progress',
  value: 'Code for credit',
  legacy: 'Legacy card',
};

/** A campaign's progress in words: cents, items or visits by its kind, out of its goal when it has one. */
function progressInWords({ kind, progress, goal }: CustomerCampaign): string {
  if (kind === 'spend' || kind === 'spend_gift_card')
    return goal === null ? `${formatMoney(progress)} spent` : `${formatMoney(progress)} of ${formatMoney(goal)}`;
  const unit = kind === 'visit' ? ['visit', 'visits'] : kind === 'item' || kind === 'item_gift_card' ? ['item', 'items'] : ['point', 'points'];
  const counted = (value: number) => `${value.toLocaleString()} ${value === 1 ? unit[0] : unit[1]}`;
  return goal === null ? counted(progress) : `${progress.toLocaleString()} of ${counted(goal)}`;
}

function standingInWords(campaign: CustomerCampaign): string {
  const parts: string[] = [];
  if (campaign.unlocked) parts.push(campaign.unlocked_until ? `Unlocked until ${formatTime(campaign.unlocked_until)}` : 'Unlocked');
  if (campaign.claimed) parts.push('Claimed');
  return parts.length > 0 ? parts.join(', ') : 'Collecting';
}

/** One customer's standing at this merchant (GET .../customers/{user_id}), and what owners and managers may do for them. */
export function CustomerDetail({ client, merchantId, me }: PageProps) {
  const { userId = '' } = useParams();
  const foundBy = (useLocation().state as { foundBy?: FoundBy } | null)?.foundBy;
  const load = useCallback(
    async () =>
      answered(await client.GET('/v15/merchants/{merchant_id}/customers/{user_id}', { params: { path: { merchant_id: String(merchantId), user_id: userId } } }))
        .customer,
    [client, merchantId, userId],
  );
  const { data: loaded, error, reload } = useLoaded(load);
  // After a change, the customer as read after it; a failed read after a change reads the page's customer again.
  const [changed, setChanged] = useState<Customer>();
  const customer = changed ?? loaded;
  const readAgain = useCallback(() => {
    setChanged(undefined);
    reload();
  }, [reload]);
  const mayChange = me.role !== 'staff';

  return (
    <>
      <p>
        <Link to="/customers">Find another customer</Link>
      </p>
      <h1>Customer</h1>
      <WhenLoaded data={customer} error={error} progress="Loading the customer…">
        {(customer) => (
          <>
            <dl className="facts">
              <dt>Customer number</dt>
              <dd>{customer.id}</dd>
              {foundBy ? (
                <>
                  <dt>Found by {foundBy.by === 'email' ? 'email' : 'phone'}</dt>
                  <dd>{foundBy.value}</dd>
                </>
              ) : null}
            </dl>
            <section aria-labelledby="balances-heading">
              <h2 id="balances-heading">Balances here</h2>
              <dl className="facts">
                <dt>Credit they can use</dt>
                <dd>{formatMoney(customer.credit_amount)}</dd>
                <dt>Gift card value</dt>
                <dd>{formatMoney(customer.gift_card_amount)}</dd>
                <dt>Rewards held</dt>
                <dd>
                  {customer.rewards_count === 0 ? 'None' : `${customer.rewards_count} (${formatMoney(customer.rewards_value_remaining_amount)} of value left)`}
                </dd>
                <dt>Orders</dt>
                <dd>{customer.orders_count.toLocaleString()}</dd>
                <dt>Spent in all</dt>
                <dd>{formatMoney(customer.total_volume_amount)}</dd>
                <dt>Saved in all</dt>
                <dd>{formatMoney(customer.savings_amount)}</dd>
              </dl>
            </section>
            <section aria-labelledby="loyalty-heading">
              <h2 id="loyalty-heading">Loyalty progress</h2>
              {customer.campaigns.length === 0 ? (
                <p>No progress, unlocking or claim in any of your campaigns yet.</p>
              ) : (
                <ScrollingTable captionId="loyalty-caption" caption="Loyalty progress per campaign">
                  <ColumnHeadings columns={['Campaign', 'Kind', 'Progress', 'Standing']} />
                  <tbody>
                    {customer.campaigns.map((campaign) => (
                      <tr key={campaign.campaign_id}>
                        <th scope="row">{campaign.title}</th>
                        <td>{KINDS[campaign.kind]}</td>
                        <td>{progressInWords(campaign)}</td>
                        <td>{standingInWords(campaign)}</td>
                      </tr>
                    ))}
                  </tbody>
                </ScrollingTable>
              )}
            </section>
            {mayChange ? (
              <>
                <GrantCredit client={client} merchantId={merchantId} customer={customer} onGranted={setChanged} onStale={readAgain} />
                <UnlockCampaign client={client} merchantId={merchantId} me={me} customer={customer} onUnlocked={setChanged} onStale={readAgain} />
              </>
            ) : (
              <section aria-labelledby="changes-heading">
                <h2 id="changes-heading">Credit and unlockings</h2>
                <p>Granting credit and unlocking campaigns are for owners and managers. Ask one of them to do it for this customer.</p>
              </section>
            )}
          </>
        )}
      </WhenLoaded>
    </>
  );
}

/** The customer as read now (after a change: the new balance or unlocking). */
async function readCustomer(client: LevelUpClient, merchantId: number, userId: number): Promise<Customer> {
  return answered(
    await client.GET('/v15/merchants/{merchant_id}/customers/{user_id}', { params: { path: { merchant_id: String(merchantId), user_id: String(userId) } } }),
  ).customer;
}

type GrantStep = { step: 'form' } | { step: 'confirming' | 'granting'; cents: number; reason: string; seconds: string; key: string };

/**
 * Granting credit, in steps: the form (amount in dollars, a reason, how long it lasts), a confirmation, progress,
 * then the new balance. The confirmation holds one Idempotency-Key and the first click takes the button, so a second
 * click on the same confirmation, or a retry after a lost answer, grants once (docs/console.md, "Customers").
 */
function GrantCredit({
  client,
  merchantId,
  customer,
  onGranted,
  onStale,
}: {
  client: LevelUpClient;
  merchantId: number;
  customer: Customer;
  onGranted: (customer: Customer) => void;
  onStale: () => void;
}) {
  const [state, setState] = useState<GrantStep>({ step: 'form' });
  const [fieldErrors, setFieldErrors] = useState<{ amount?: string; reason?: string }>({});
  // What was typed, so "Cancel" on the confirmation returns to the form as it was.
  const [draft, setDraft] = useState({ amount: '', reason: '', seconds: DEFAULT_EXPIRY });
  const [error, setError] = useState<ConsoleError>();
  const [granted, setGranted] = useState<string>();
  const sending = useRef(false);
  // Focus follows the step: the confirmation's button (ConfirmStep), then the result (ResultLine).

  function review(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const typed = { amount: formText(form, 'amount'), reason: formText(form, 'reason'), seconds: formText(form, 'expires') || DEFAULT_EXPIRY };
    setDraft(typed);
    const cents = dollarsToCents(typed.amount);
    const reason = typed.reason.trim();
    const problems = {
      amount:
        cents === undefined || cents < GRANT_MIN_CENTS || cents > GRANT_MAX_CENTS
          ? `Type an amount in dollars from ${formatMoney(GRANT_MIN_CENTS)} to ${formatMoney(GRANT_MAX_CENTS)}, for example 5.00.`
          : undefined,
      reason: reason === '' ? 'Say why you give this credit: it is kept with the grant.' : undefined,
    };
    setFieldErrors(problems);
    if (cents === undefined || problems.amount || problems.reason) {
      // The first field to correct gets the focus, so its message is read out with it.
      event.currentTarget.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    setGranted(undefined);
    setError(undefined);
    setState({
      step: 'confirming',
      cents,
      reason,
      seconds: typed.seconds,
      key: newIdempotencyKey(),
    });
  }

  async function grant() {
    if (state.step !== 'confirming' || sending.current) return;
    sending.current = true;
    setState({ ...state, step: 'granting' });
    try {
      const answer = await withIdempotencyKey(
        (key) =>
          client.POST('/v15/merchants/{merchant_id}/customers/{user_id}/credit_grants', {
            params: { path: { merchant_id: String(merchantId), user_id: String(customer.id) }, header: { 'Idempotency-Key': key } },
            body: { credit_grant: { value_amount: state.cents, duration_in_seconds: Number(state.seconds), message: state.reason } },
          }),
        { key: state.key, attempts: WRITE_ATTEMPTS },
      );
      const grantAnswer = answered(answer).credit_grant;
      setDraft({ amount: '', reason: '', seconds: DEFAULT_EXPIRY });
      setState({ step: 'form' });
      try {
        const after = await readCustomer(client, merchantId, customer.id);
        onGranted(after);
        setGranted(
          `Granted ${formatMoney(grantAnswer.value_amount)}, until ${formatTime(grantAnswer.expires_at)}. The customer's credit here is now ${formatMoney(after.credit_amount)}.`,
        );
      } catch {
        // The grant is made; only the read after it failed: say so, and read the customer again.
        setGranted(`Granted ${formatMoney(grantAnswer.value_amount)}, until ${formatTime(grantAnswer.expires_at)}.`);
        onStale();
      }
    } catch (failure) {
      setError(asConsoleError(failure));
      setState({ step: 'form' });
    } finally {
      sending.current = false;
    }
  }

  const expiryLabel = (seconds: string) => EXPIRIES.find((entry) => entry.value === seconds)?.label ?? '1 year';

  return (
    <section aria-labelledby="grant-heading">
      <h2 id="grant-heading">Grant credit</h2>
      {granted ? <ResultLine className="done" text={granted} /> : null}
      <ErrorMessage error={error} />
      {state.step === 'form' ? (
        <form className="customer-form" aria-label="Grant credit" onSubmit={review} noValidate>
          <p className="hint">Credit is spent like money on their next orders here. Your sign-in approves it: you are recorded as the person who granted it.</p>
          <label>
            Amount in dollars
            <input
              name="amount"
              defaultValue={draft.amount}
              inputMode="decimal"
              autoComplete="off"
              maxLength={10}
              required
              {...describedByProblem('grant-amount-error', fieldErrors.amount)}
            />
          </label>
          <FieldProblem id="grant-amount-error" problem={fieldErrors.amount} />
          <label>
            Reason (kept with the grant)
            <textarea
              name="reason"
              defaultValue={draft.reason}
              rows={2}
              maxLength={REASON_MAX}
              required
              {...describedByProblem('grant-reason-error', fieldErrors.reason)}
            />
          </label>
          <FieldProblem id="grant-reason-error" problem={fieldErrors.reason} />
          <SelectField label="Credit lasts" name="expires" defaultValue={draft.seconds} options={EXPIRIES} />
          <button type="submit">Review the grant</button>
        </form>
      ) : (
        <ConfirmStep
          question={`Grant ${formatMoney(state.cents)} of credit to customer ${customer.id}, lasting ${expiryLabel(state.seconds)}? Reason: “${state.reason}”.`}
          confirmLabel={`Yes, grant ${formatMoney(state.cents)}`}
          onConfirm={() => void grant()}
          onCancel={() => setState({ step: 'form' })}
          running={state.step === 'granting' ? 'Granting the credit…' : undefined}
        />
      )}
    </section>
  );
}

type ManagedCampaign = components['schemas']['MerchantCampaign']['campaign'];

/** The date picker's day (YYYY-MM-DD) as the API's MM/DD/YYYY: the unlocking lasts through that day, UTC. */
const throughDay = (day: string) => `${day.slice(5, 7)}/${day.slice(8, 10)}/${day.slice(0, 4)}`;

/** Unlocking one of the merchant's locked campaigns for this customer, with no end or through a chosen day (UTC). */
function UnlockCampaign({
  client,
  merchantId,
  me,
  customer,
  onUnlocked,
  onStale,
}: {
  client: LevelUpClient;
  merchantId: number;
  me: StaffMember;
  customer: Customer;
  onUnlocked: (customer: Customer) => void;
  onStale: () => void;
}) {
  const load = useCallback(async (): Promise<ManagedCampaign[]> => {
    const campaigns = await allItems(client, '/v15/merchants/{merchant_id}/all_campaigns', { params: { path: { merchant_id: String(merchantId) } } });
    // Only a locked campaign needs unlocking; a closed one earns nothing any more.
    return campaigns.map(({ campaign }) => campaign).filter((campaign) => campaign.locked && campaign.state !== 'closed');
  }, [client, merchantId]);
  const { data: campaigns, error: loadError } = useLoaded(load);
  const { busy: unlocking, error, setError, run } = useWrite();
  const [unlocked, setUnlocked] = useState<string>();
  const [today] = useState(() => new Date().toISOString().slice(0, 10));

  async function unlock(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (unlocking) return;
    const form = new FormData(event.currentTarget);
    const campaign = campaigns?.find((entry) => String(entry.id) === formText(form, 'campaign'));
    const until = formText(form, 'until');
    if (!campaign) return;
    if (until !== '' && until < today) {
      setError(new ConsoleError('Choose today or a later day, or leave the day empty for no end.', 0, undefined));
      return;
    }
    setUnlocked(undefined);
    await run(async () => {
      const answer = await withIdempotencyKey(
        (key) =>
          client.POST('/v15/merchants/{merchant_id}/customers/{user_id}/campaign_unlockings', {
            params: { path: { merchant_id: String(merchantId), user_id: String(customer.id) }, header: { 'Idempotency-Key': key } },
            body: { campaign_unlocking: { campaign_id: campaign.id, ...(until !== '' ? { expires_at: throughDay(until) } : {}) } },
          }),
        { attempts: WRITE_ATTEMPTS },
      );
      const done = answered(answer).campaign_unlocking;
      setUnlocked(`Unlocked “${campaign.title}” for this customer${done.expires_at ? ` until ${formatTime(done.expires_at)}` : ', with no end'}.`);
      try {
        onUnlocked(await readCustomer(client, merchantId, customer.id));
      } catch {
        onStale();
      }
    });
  }

  return (
    <section aria-labelledby="unlock-heading">
      <h2 id="unlock-heading">Unlock a campaign</h2>
      {unlocked ? <ResultLine className="done" text={unlocked} /> : null}
      <ErrorMessage error={error} />
      <WhenLoaded data={campaigns} error={loadError} progress="Loading your campaigns…">
        {(campaigns) =>
          campaigns.length === 0 ? (
            <p>You have no locked campaign to unlock. {me.role === 'owner' ? 'Create one on the Campaigns page.' : 'An owner creates them.'}</p>
          ) : (
            <form className="customer-form" aria-label="Unlock a campaign" onSubmit={(event) => void unlock(event)} aria-busy={unlocking}>
              <p className="hint">A locked campaign counts only for the customers it is unlocked for. Unlocking again replaces the end day.</p>
              <SelectField label="Campaign" name="campaign" options={campaigns.map((campaign) => ({ value: campaign.id, label: campaign.title }))} />
              <label>
                Until the end of (UTC, optional)
                <input type="date" name="until" min={today} />
              </label>
              <button type="submit" disabled={unlocking}>
                Unlock for this customer
              </button>
              {unlocking ? <Progress label="Unlocking the campaign…" /> : null}
            </form>
          )
        }
      </WhenLoaded>
    </section>
  );
}

/** A field's problem, under it; `describedByProblem` marks the field invalid and points its description at it. */
function FieldProblem({ id, problem }: { id: string; problem: string | undefined }) {
  return problem ? (
    <p className="field-error" id={id}>
      {problem}
    </p>
  ) : null;
}

function describedByProblem(id: string, problem: string | undefined) {
  return { 'aria-invalid': problem ? true : undefined, 'aria-describedby': problem ? id : undefined };
}
