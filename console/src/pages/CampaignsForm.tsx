import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { withIdempotencyKey, type ApiErrors, type LevelUpClient } from '../../../clients/typescript/index.ts';
import {
  createBody,
  emptyDraft,
  emptyGoal,
  draftOf,
  KINDS,
  updateBody,
  uses,
  type Campaign,
  type CampaignDraft,
  type CampaignKind,
  type FieldProblems,
  type GoalDraft,
  type ItemRuleDraft,
} from '../campaigns-fields.ts';
import { ErrorMessage, Progress } from '../ErrorMessage.tsx';
import { SelectField } from '../fields.tsx';
import { CheckField, PARAGRAPH_FIELDS, TextField } from '../form-fields.tsx';
import { answered, asConsoleError, type ConsoleError } from '../session.ts';
import { CampaignPreview } from './CampaignsPreview.tsx';
import { FixedFacts } from './CampaignsDetail.tsx';

/** Lost races (409) and a busy API (429, 5xx) are sent again with the same Idempotency-Key: one campaign, one change. */
const SAVE_ATTEMPTS = 3;

const ITEM_FIELDS = [
  { value: 'sku', label: 'SKU' },
  { value: 'category', label: 'Category' },
  { value: 'name', label: 'Item name' },
] as const;

const fieldId = (name: string) => `campaign-${name.replaceAll('.', '-')}`;

/** A field named by the API's field (its problems' name), with its problem beside it. */
const fieldOf = (name: string, problems: FieldProblems) => ({ id: fieldId(name), name, problem: problems[name], look: PARAGRAPH_FIELDS });

/** The API's 422 as problems by field (`object.property`: the property names the form's field). */
function problemsOf(errors: ApiErrors | undefined): FieldProblems {
  const problems: FieldProblems = {};
  for (const { error } of errors ?? []) {
    // `base`: about the whole campaign (listed at the top, beside no field).
    const field = error.property;
    problems[field] ??= error.message;
  }
  return problems;
}

/** The draft's fields that a text field edits, and those a checkbox edits. */
type TextKey = { [Field in keyof CampaignDraft]: string extends CampaignDraft[Field] ? Field : never }[keyof CampaignDraft];
type CheckKey = { [Field in keyof CampaignDraft]: CampaignDraft[Field] extends boolean ? Field : never }[keyof CampaignDraft];

type Mode = { kind: 'create' } | { kind: 'edit'; campaign: Campaign };

/**
 * Create (owner) or edit (owner) a campaign, with the customer's view beside it. A new campaign takes every field of
 * its kind; an edit takes only what the API lets change (the economics stay as created: docs/merchant-api.md).
 */
export function CampaignForm({ client, merchantId, mode }: { client: LevelUpClient; merchantId: number; mode: Mode }) {
  const navigate = useNavigate();
  const [draft, setDraft] = useState<CampaignDraft>(() => (mode.kind === 'edit' ? draftOf(mode.campaign) : emptyDraft()));
  const [problems, setProblems] = useState<FieldProblems>({});
  const [error, setError] = useState<ConsoleError>();
  const [notice, setNotice] = useState<string>();
  const [saving, setSaving] = useState(false);
  const summary = useRef<HTMLDivElement>(null);
  const [attempt, setAttempt] = useState(0);

  // After a refused save, focus goes to the list of what to fix (a screen reader reads it at once too).
  useEffect(() => {
    if (attempt > 0) summary.current?.focus();
  }, [attempt]);

  const editing = mode.kind === 'edit';
  const change =
    <Field extends keyof CampaignDraft>(field: Field) =>
    (value: CampaignDraft[Field]) =>
      setDraft((current) => ({ ...current, [field]: value }));
  // A field of the draft with its input's name (the API's field, which names its problems) and its problem beside it.
  const textOf = (field: TextKey, name: string = field) => ({ ...fieldOf(name, problems), value: draft[field], onChange: change(field) });
  const checkOf = (field: CheckKey) => ({ ...fieldOf(field, problems), checked: draft[field], onChange: change(field) });
  const changeRule = (index: number, rule: Partial<ItemRuleDraft>) =>
    setDraft((current) => ({ ...current, item_rules: current.item_rules.map((entry, at) => (at === index ? { ...entry, ...rule } : entry)) }));
  const changeGoal = (index: number, goal: Partial<GoalDraft>) =>
    setDraft((current) => ({ ...current, goals: current.goals.map((entry, at) => (at === index ? { ...entry, ...goal } : entry)) }));

  // A field's problem goes once it is edited (each input is named by the API's field): the list at the top shrinks as they are fixed.
  function clearProblemOf(event: FormEvent<HTMLFormElement>) {
    const name = (event.target as { name?: unknown }).name;
    if (typeof name !== 'string' || !(name in problems)) return;
    const { [name]: _fixed, ...rest } = problems;
    setProblems(rest);
    // The last one fixed: the refusal is behind us (its reference with it).
    if (Object.keys(rest).length === 0) setError(undefined);
  }

  /** Sends the save (again, with the same Idempotency-Key, after a lost race or a busy API), then opens the saved campaign with what was done. */
  async function send(request: (key: string) => Promise<{ data?: { campaign: Campaign }; error?: ApiErrors; response: Response }>, saved: string) {
    setProblems({});
    setSaving(true);
    try {
      const answer = await withIdempotencyKey(request, { attempts: SAVE_ATTEMPTS });
      if (answer.response.status === 422) setProblems(problemsOf(answer.error));
      void navigate(`/campaigns/${answered(answer).campaign.id}`, { state: { saved } });
    } catch (failure) {
      setError(asConsoleError(failure));
      setAttempt((value) => value + 1);
    } finally {
      setSaving(false);
    }
  }

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(undefined);
    setNotice(undefined);
    if (mode.kind === 'create') {
      const { body, problems: unreadable } = createBody(draft);
      if (Object.keys(unreadable).length > 0) {
        setProblems(unreadable);
        setAttempt((value) => value + 1);
        return;
      }
      await send(
        (key) =>
          client.POST('/v15/merchants/{merchant_id}/campaigns', {
            params: { path: { merchant_id: String(merchantId) }, header: { 'Idempotency-Key': key } },
            body: { campaign: body },
          }),
        'The campaign is created.',
      );
      return;
    }
    const body = updateBody(draft, mode.campaign);
    if (Object.keys(body).length === 0) {
      setProblems({});
      setNotice('Nothing has changed yet.');
      return;
    }
    await send(
      (key) =>
        client.PUT('/v15/merchants/{merchant_id}/campaigns/{campaign_id}', {
          params: { path: { merchant_id: String(merchantId), campaign_id: String(mode.campaign.id) }, header: { 'Idempotency-Key': key } },
          body: { campaign: body },
        }),
      'The changes are saved.',
    );
  }

  const problemList = Object.entries(problems);
  const kindMeaning = KINDS.find((entry) => entry.value === draft.kind)?.means;
  const amountHint = 'In dollars, like 5.00.';

  return (
    <div className="campaign-editor">
      <form className="campaign-form" aria-labelledby="campaign-form-heading" noValidate onSubmit={(event) => void save(event)} onInput={clearProblemOf}>
        <h2 id="campaign-form-heading" className="visually-hidden">
          {editing ? 'Campaign details' : 'New campaign details'}
        </h2>
        {problemList.length > 0 ? (
          <div className="form-problems" ref={summary} tabIndex={-1} role="alert">
            <p>{editing ? 'The changes were not saved.' : 'The campaign was not created.'} Please correct:</p>
            {problemList.length > 0 ? (
              <ul>
                {problemList.map(([field, message]) => (
                  <li key={field}>{field === 'base' ? message : <a href={`#${fieldId(field)}`}>{message}</a>}</li>
                ))}
              </ul>
            ) : null}
          </div>
        ) : null}
        {notice ? <p role="status">{notice}</p> : null}
        <ErrorMessage error={problemList.length > 0 ? undefined : error} />
        {problemList.length > 0 && error?.requestId ? (
          <p className="reference">
            Reference for support: <code>{error.requestId}</code>
          </p>
        ) : null}

        {editing ? null : (
          <fieldset>
            <legend>Kind of campaign</legend>
            <SelectField
              label="Kind"
              name="kind"
              value={draft.kind}
              options={KINDS.map((entry) => ({ value: entry.value, label: entry.label }))}
              onChange={(value) => change('kind')(value as CampaignKind)}
            />
            <p className="hint">{kindMeaning}</p>
          </fieldset>
        )}

        <fieldset>
          <legend>What customers read</legend>
          <TextField {...textOf('title')} label="Name" hint="The campaign's name in the app, like “Spend $50, get $5”." required />
          <TextField {...textOf('description')} label="Message" hint="A line or two under the name: what the customer does and gets." multiline rows={3} />
          <TextField
            {...textOf('reward_title')}
            label="Reward name (optional)"
            hint="What the reward is called in the customer's rewards, like “free coffee”. Empty: the name above."
          />
          {uses.itemNames(draft) ? (
            <>
              <TextField {...textOf('reward_article')} label="Word before the reward" hint="“a” or “an” (“get a free coffee”), or empty." />
              <TextField {...textOf('required_item_singular')} label="One item is called" hint="Like “coffee”: “1 coffee”." />
              <TextField {...textOf('required_item_plural')} label="Several items are called" hint="Like “coffees”: “5 coffees”." />
            </>
          ) : null}
          {uses.goals(draft) ? (
            <>
              <TextField
                {...textOf('point_label_singular')}
                label="One point is called (optional)"
                hint="Like “star”. Empty: dollars for spend, the item's name for items."
              />
              <TextField {...textOf('point_label_plural')} label="Several points are called (optional)" hint="Like “stars”." />
            </>
          ) : null}
        </fieldset>

        {editing ? (
          <section aria-labelledby="campaign-fixed-heading">
            <h3 id="campaign-fixed-heading">Set when it was created</h3>
            <p className="hint">
              Customers' progress and rewards were counted under these, so they stay as they are. To change them, close this campaign and create a new one.
            </p>
            <FixedFacts campaign={mode.campaign} />
          </section>
        ) : (
          <fieldset>
            <legend>Goal and reward</legend>
            {uses.spend(draft) ? (
              <TextField
                {...textOf('required_spend', 'required_spend_amount')}
                label="Spend to reach"
                hint={`What a customer spends here to earn the reward. ${amountHint}`}
                inputMode="decimal"
                required
              />
            ) : null}
            {uses.visits(draft) ? (
              <>
                <TextField {...textOf('required_visit_count')} label="Visits to reach" hint="How many visits earn the reward." inputMode="numeric" required />
                <TextField
                  {...textOf('qualifying_order_spend', 'qualifying_order_spend_amount')}
                  label="Smallest order that counts as a visit"
                  hint={`Empty or 0: every order. ${amountHint}`}
                  inputMode="decimal"
                />
              </>
            ) : null}
            {uses.itemCount(draft) ? (
              <TextField
                {...textOf('required_item_count')}
                label="Items to buy"
                hint="How many of the items below earn the reward."
                inputMode="numeric"
                required
              />
            ) : null}
            {uses.goals(draft) ? (
              <SelectField
                label="Points come from"
                name="progress_type"
                value={draft.progress_type}
                options={[
                  { value: 'spend', label: 'Spend (one point a cent)' },
                  { value: 'item', label: 'Items bought (one point an item)' },
                ]}
                onChange={(value) => change('progress_type')(value === 'item' ? 'item' : 'spend')}
              />
            ) : null}
            {uses.itemRules(draft) ? (
              <ItemRules
                rules={draft.item_rules}
                problems={problems}
                onChange={changeRule}
                setRules={(item_rules) => setDraft((current) => ({ ...current, item_rules }))}
              />
            ) : null}
            {uses.period(draft) ? (
              <TextField
                {...textOf('progress_period_days')}
                label="Within how many days"
                hint="The period starts with the customer's first qualifying order; after it, progress starts again from zero."
                inputMode="numeric"
                required
              />
            ) : null}
            {uses.earn(draft) ? (
              <TextField
                {...textOf('earn', 'earn_amount')}
                label="Reward"
                hint={`Credit the customer gets each time they reach the goal, spent on their next orders here. ${amountHint}`}
                inputMode="decimal"
                required
              />
            ) : null}
            {uses.goals(draft) ? (
              <Goals
                goals={draft.goals}
                byItems={draft.progress_type === 'item'}
                problems={problems}
                onChange={changeGoal}
                setGoals={(goals) => setDraft((current) => ({ ...current, goals }))}
              />
            ) : null}
            {uses.value(draft) ? (
              <>
                <TextField
                  {...textOf('value', 'value_amount')}
                  label="Credit"
                  hint={`What a customer gets when they enter the code. ${amountHint}`}
                  inputMode="decimal"
                  required
                />
                <TextField {...textOf('max_claims')} label="Most customers who may claim it (optional)" hint="Empty: no limit." inputMode="numeric" />
              </>
            ) : null}
          </fieldset>
        )}

        <fieldset>
          <legend>When and who</legend>
          {editing ? null : (
            <TextField {...textOf('opens_at')} label="Starts (UTC, optional)" hint="Empty: now. Before then customers see nothing." type="datetime-local" />
          )}
          <TextField
            {...textOf('closes_at')}
            label="Ends (UTC, optional)"
            hint={
              editing
                ? 'Only later (or empty: no end). To end it sooner, close the campaign.'
                : 'Empty: no end. From then on it earns nothing more; rewards already earned stay spendable.'
            }
            type="datetime-local"
          />
          {editing ? null : (
            <>
              <TextField
                {...textOf('cohort_code')}
                label={uses.value(draft) ? 'Code' : 'Code (optional)'}
                hint="3 to 40 letters, digits, - or _. Customers type it in the app to claim or join."
                required={uses.value(draft)}
              />
              {uses.value(draft) ? null : (
                <CheckField
                  {...checkOf('requires_opt_in')}
                  label="Customers join with the code"
                  hint="Only customers who entered the code earn; needs a code."
                />
              )}
              <CheckField
                {...checkOf('locked')}
                label="Only for customers you unlock"
                hint="Hidden from everyone else; unlock it for a customer on the Customers page."
              />
            </>
          )}
        </fieldset>

        {saving ? <Progress label={editing ? 'Saving the changes…' : 'Creating the campaign…'} /> : null}
        <div className="actions">
          <button type="submit" disabled={saving}>
            {editing ? 'Save changes' : 'Create campaign'}
          </button>
          <Link to={editing ? `/campaigns/${mode.campaign.id}` : '/campaigns'}>Cancel</Link>
        </div>
      </form>
      <CampaignPreview draft={draft} />
    </div>
  );
}

function ItemRules({
  rules,
  problems,
  onChange,
  setRules,
}: {
  rules: ItemRuleDraft[];
  problems: FieldProblems;
  onChange: (index: number, rule: Partial<ItemRuleDraft>) => void;
  setRules: (rules: ItemRuleDraft[]) => void;
}) {
  return (
    <fieldset className="rows">
      <legend>Which items count</legend>
      <p className="hint" id="campaign-item_rules-hint">
        An item counts when its SKU, category or name is the value (capitals ignored).
      </p>
      {problems.item_rules ? (
        <p className="field-error" id={fieldId('item_rules')} tabIndex={-1}>
          {problems.item_rules}
        </p>
      ) : null}
      {rules.map((rule, index) => (
        <div className="row" key={index}>
          <SelectField
            label={`Rule ${index + 1}: compare`}
            name={`item_rules.${index}.field`}
            value={rule.field}
            options={ITEM_FIELDS}
            onChange={(value) => onChange(index, { field: value === 'category' || value === 'name' ? value : 'sku' })}
          />
          <TextField
            {...fieldOf(`item_rules.${index}.value`, problems)}
            label={`Rule ${index + 1}: value`}
            value={rule.value}
            onChange={(value) => onChange(index, { value })}
          />
          {rules.length > 1 ? (
            <button type="button" className="secondary" onClick={() => setRules(rules.filter((_, at) => at !== index))}>
              Remove rule {index + 1}
            </button>
          ) : null}
        </div>
      ))}
      <button type="button" className="secondary" onClick={() => setRules([...rules, { field: 'sku', value: '' }])}>
        Add a rule
      </button>
    </fieldset>
  );
}

function Goals({
  goals,
  byItems,
  problems,
  onChange,
  setGoals,
}: {
  goals: GoalDraft[];
  byItems: boolean;
  problems: FieldProblems;
  onChange: (index: number, goal: Partial<GoalDraft>) => void;
  setGoals: (goals: GoalDraft[]) => void;
}) {
  return (
    <fieldset className="rows">
      <legend>Goals</legend>
      {problems.goals ? (
        <p className="field-error" id={fieldId('goals')} tabIndex={-1}>
          {problems.goals}
        </p>
      ) : null}
      {goals.map((goal, index) => (
        <div className="row" key={index}>
          <TextField
            {...fieldOf(`goals.${index}.title`, problems)}
            label={`Goal ${index + 1}: name`}
            value={goal.title}
            onChange={(title) => onChange(index, { title })}
          />
          <TextField
            {...fieldOf(`goals.${index}.description`, problems)}
            label={`Goal ${index + 1}: message (optional)`}
            value={goal.description}
            onChange={(description) => onChange(index, { description })}
          />
          <TextField
            {...fieldOf(`goals.${index}.progress_required`, problems)}
            label={`Goal ${index + 1}: reached at`}
            hint={byItems ? 'Items bought in all.' : 'Spend in all, in dollars.'}
            value={goal.progress_required}
            onChange={(progress_required) => onChange(index, { progress_required })}
            inputMode={byItems ? 'numeric' : 'decimal'}
          />
          <TextField
            {...fieldOf(`goals.${index}.earn_amount`, problems)}
            label={`Goal ${index + 1}: reward (optional)`}
            hint="Credit given once when the goal is reached, in dollars."
            value={goal.earn}
            onChange={(earn) => onChange(index, { earn })}
            inputMode="decimal"
          />
          {goals.length > 1 ? (
            <button type="button" className="secondary" onClick={() => setGoals(goals.filter((_, at) => at !== index))}>
              Remove goal {index + 1}
            </button>
          ) : null}
        </div>
      ))}
      <button type="button" className="secondary" onClick={() => setGoals([...goals, emptyGoal()])}>
        Add a goal
      </button>
    </fieldset>
  );
}
