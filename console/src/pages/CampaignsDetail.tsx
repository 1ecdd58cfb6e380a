import { Fragment, useCallback, useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { withIdempotencyKey, type LevelUpClient } from '../../../clients/typescript/index.ts';
import { draftOf, kindLabel, STATE_WORDS, type Campaign } from '../campaigns-fields.ts';
import { ErrorMessage, Progress } from '../ErrorMessage.tsx';
import { formatMoney, formatTime } from '../format.ts';
import { useLoaded, type Loaded } from '../loaded.ts';
import { answered, type StaffMember } from '../session.ts';
import { CampaignPreview } from './CampaignsPreview.tsx';
import { ConfirmedAction, DoneSection } from '../confirm.tsx';

/** Lost races (409) and a busy API are sent again with the same Idempotency-Key: the campaign closes once. */
const CLOSE_ATTEMPTS = 3;

const ITEM_FIELD_WORDS = { sku: 'SKU', category: 'category', name: 'item name' } as const;

/** The fields a campaign's economics were created with (an edit shows them too: they stay as created). */
export function FixedFacts({ campaign }: { campaign: Campaign }) {
  const facts: [string, string][] = [['Kind', kindLabel(campaign.kind)]];
  if (campaign.required_spend_amount !== null) facts.push(['Spend to reach', formatMoney(campaign.required_spend_amount)]);
  if (campaign.required_visit_count !== null) facts.push(['Visits to reach', String(campaign.required_visit_count)]);
  if (campaign.qualifying_order_spend_amount !== null) facts.push(['Smallest order that counts', formatMoney(campaign.qualifying_order_spend_amount)]);
  if (campaign.required_item_count !== null) facts.push(['Items to buy', String(campaign.required_item_count)]);
  if (campaign.item_rules.length > 0) {
    facts.push(['Items that count', campaign.item_rules.map((rule) => `${ITEM_FIELD_WORDS[rule.field]} “${rule.value}”`).join(', ')]);
  }
  if (campaign.progress_period_days !== null) facts.push(['Within', `${campaign.progress_period_days} days`]);
  if (campaign.kind !== 'custom_progress' && campaign.kind !== 'value' && campaign.kind !== 'legacy') facts.push(['Reward', formatMoney(campaign.earn_amount)]);
  if (campaign.progress_type) facts.push(['Points come from', campaign.progress_type === 'item' ? 'items bought' : 'spend']);
  for (const goal of campaign.goals) {
    const at = campaign.progress_type === 'item' ? `${goal.progress_required} items` : formatMoney(goal.progress_required);
    facts.push([`Goal “${goal.title}”`, `at ${at}, reward ${formatMoney(goal.earn_amount)}`]);
  }
  if (campaign.kind === 'value') facts.push(['Credit', formatMoney(campaign.value_amount)]);
  if (campaign.max_claims !== null) facts.push(['Most claims', String(campaign.max_claims)]);
  facts.push(['Starts', formatTime(campaign.opens_at)]);
  if (campaign.cohort_code) facts.push(['Code', campaign.cohort_code]);
  facts.push(['Customers join with the code', campaign.requires_opt_in ? 'Yes' : 'No']);
  facts.push(['Only for customers you unlock', campaign.locked ? 'Yes' : 'No']);
  return (
    <dl className="facts">
      {facts.map(([term, value], index) => (
        <Fragment key={`${index} ${term}`}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </Fragment>
      ))}
    </dl>
  );
}

/** One campaign as the API has it, read when the page opens (its page and its edit start from it). */
export function useCampaign(client: LevelUpClient, merchantId: number, campaignId: string): Loaded<Campaign> {
  const load = useCallback(async () => {
    const path = { merchant_id: String(merchantId), campaign_id: campaignId };
    return answered(await client.GET('/v15/merchants/{merchant_id}/campaigns/{campaign_id}', { params: { path } })).campaign;
  }, [client, merchantId, campaignId]);
  return useLoaded(load);
}

/** One campaign: what it is, what a customer sees, and for owners its edit and close. */
export function CampaignDetail({ client, merchantId, me, campaignId }: { client: LevelUpClient; merchantId: number; me: StaffMember; campaignId: string }) {
  const saved = (useLocation().state as { saved?: unknown } | null)?.saved;
  const { data: read, error } = useCampaign(client, merchantId, campaignId);
  // The answer of a change replaces what was read (it is the campaign as changed).
  const [changed, setChanged] = useState<Campaign>();
  const campaign = changed ?? read;
  const heading = useRef<HTMLHeadingElement>(null);

  // Arriving from a save, focus lands on the saved campaign's name (the status line below it says what happened).
  const loaded = campaign !== undefined;
  useEffect(() => {
    if (loaded && typeof saved === 'string') heading.current?.focus();
  }, [loaded, saved]);

  return (
    <>
      <p>
        <Link to="/campaigns">Back to the campaigns</Link>
      </p>
      {error ? (
        <>
          <h1>Campaign</h1>
          <ErrorMessage error={error} />
        </>
      ) : !campaign ? (
        <>
          <h1>Campaign</h1>
          <Progress label="Loading the campaign…" />
        </>
      ) : (
        <>
          <h1 ref={heading} tabIndex={-1}>
            {campaign.title}
          </h1>
          {typeof saved === 'string' ? <p role="status">{saved}</p> : null}
          <dl className="facts">
            <dt>State</dt>
            <dd>{STATE_WORDS[campaign.state]}</dd>
            <dt>Message</dt>
            <dd>{campaign.description === '' ? 'None' : campaign.description}</dd>
            <dt>Reward name</dt>
            <dd>{campaign.reward_title}</dd>
            <dt>Ends</dt>
            <dd>{campaign.closes_at ? formatTime(campaign.closes_at) : 'No end'}</dd>
            <dt>Claims so far</dt>
            <dd>{campaign.claims_count}</dd>
          </dl>
          <FixedFacts campaign={campaign} />
          {campaign.kind === 'legacy' ? (
            <p>This is an older program's campaign, made by the operators: customers claim its cards by their old card number.</p>
          ) : (
            <CampaignPreview draft={draftOf(campaign)} />
          )}
          <Changes client={client} merchantId={merchantId} me={me} campaign={campaign} onChanged={setChanged} />
        </>
      )}
    </>
  );
}

/** Edit and close, for owners; managers and staff are told who may (the API answers them 403). */
function Changes({
  client,
  merchantId,
  me,
  campaign,
  onChanged,
}: {
  client: LevelUpClient;
  merchantId: number;
  me: StaffMember;
  campaign: Campaign;
  onChanged: (campaign: Campaign) => void;
}) {
  const [closedNow, setClosedNow] = useState(false);

  async function close() {
    const answer = await withIdempotencyKey(
      (key) =>
        client.POST('/v15/merchants/{merchant_id}/campaigns/{campaign_id}/close', {
          params: { path: { merchant_id: String(merchantId), campaign_id: String(campaign.id) }, header: { 'Idempotency-Key': key } },
          body: {},
        }),
      { attempts: CLOSE_ATTEMPTS },
    );
    onChanged(answered(answer).campaign);
    setClosedNow(true);
  }

  if (me.role !== 'owner') {
    return (
      <section aria-labelledby="campaign-changes-heading">
        <h2 id="campaign-changes-heading">Changes</h2>
        <p>Only owners create, edit and close campaigns. Ask an owner to change this one.</p>
      </section>
    );
  }
  if (campaign.state === 'closed') {
    return (
      <DoneSection id="campaign-changes-heading" heading="Closed" now={closedNow}>
        {closedNow ? 'The campaign is closed. ' : ''}It earns nothing more and cannot be claimed; rewards customers already hold stay spendable. A closed
        campaign never reopens.
      </DoneSection>
    );
  }
  return (
    <section aria-labelledby="campaign-changes-heading">
      <h2 id="campaign-changes-heading">Changes</h2>
      <ConfirmedAction
        question={`Close “${campaign.title}” now? Customers stop earning and can no longer claim it; the rewards they hold stay spendable. A closed campaign cannot be reopened.`}
        confirmLabel="Yes, close it now"
        progress="Closing the campaign…"
        perform={close}
      >
        {(ask) => (
          <div className="actions">
            {campaign.kind === 'legacy' ? null : (
              <Link className="button-link" to={`/campaigns/${campaign.id}/edit`}>
                Edit the campaign
              </Link>
            )}
            <button type="button" className="secondary" onClick={ask}>
              Close the campaign
            </button>
          </div>
        )}
      </ConfirmedAction>
    </section>
  );
}
