import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import type { ApiErrors, LevelUpClient } from '../../../clients/typescript/index.ts';
import { ErrorMessage, Progress, WhenLocations } from '../ErrorMessage.tsx';
import { SelectField } from '../fields.tsx';
import { formatMoney, formatTime } from '../format.ts';
import { useLoaded, useLocations, type LocationName } from '../loaded.ts';
import { apiProblems, menuProblems, sendDraftChange, toMenu, toModel, type Menu, type MenuDraft, type MenuModel, type Problem } from '../menu-model.ts';
import { answered, type PageProps } from '../session.ts';
import { MenuForm, type ShownProblems } from './MenuForm.tsx';
import { useWrite } from '../write.ts';

/** The page (lazily loaded by Menu.tsx): pick a location, then read or edit its menu draft. */
export default function MenuPage({ client, merchantId, me }: PageProps) {
  const [search, setSearch] = useSearchParams();
  const { data: locations, error } = useLocations(client, merchantId);
  const [dirty, setDirty] = useState(false);
  const [switchTo, setSwitchTo] = useState<string>();
  const stayButton = useRef<HTMLButtonElement>(null);

  // The location lives in the address, so a reload or a shared link opens the same menu.
  const locationId = search.get('location') ?? (locations?.[0] ? String(locations[0].id) : undefined);
  const location = locations?.find((entry) => String(entry.id) === locationId);

  useEffect(() => {
    if (switchTo !== undefined) stayButton.current?.focus();
  }, [switchTo]);

  function openLocation(next: string) {
    setSwitchTo(undefined);
    setDirty(false);
    setSearch(new URLSearchParams({ location: next }));
  }

  function chooseLocation(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next = new FormData(event.currentTarget).get('location');
    if (typeof next !== 'string' || next === locationId) return;
    // Unsaved edits are not thrown away without asking.
    if (dirty) setSwitchTo(next);
    else openLocation(next);
  }

  return (
    <>
      <h1>Menu</h1>
      <WhenLocations locations={locations} error={error} none="This merchant has no location yet, so no menu.">
        {(locations) => (
          <>
            <form className="filters" aria-label="Choose a location" onSubmit={chooseLocation} key={locationId}>
              <SelectField
                label="Location"
                name="location"
                defaultValue={locationId}
                options={locations.map((entry) => ({ value: entry.id, label: entry.name }))}
              />
              <button type="submit">Open its menu</button>
            </form>
            {switchTo !== undefined ? (
              <div className="confirm" role="group" aria-labelledby="menu-switch-question">
                <p id="menu-switch-question">You have changes that are not saved. Open the other location&apos;s menu and lose them?</p>
                <div className="actions">
                  <button type="button" className="secondary" ref={stayButton} onClick={() => setSwitchTo(undefined)}>
                    Stay here
                  </button>
                  <button type="button" onClick={() => openLocation(switchTo)}>
                    Open it and lose my changes
                  </button>
                </div>
              </div>
            ) : null}
            {location ? (
              <LocationMenu key={location.id} client={client} merchantId={merchantId} me={me} location={location} onDirty={setDirty} />
            ) : (
              <p>This location was not found. Choose one of the list.</p>
            )}
          </>
        )}
      </WhenLocations>
    </>
  );
}

interface LocationMenuProps extends PageProps {
  location: LocationName;
  onDirty: (dirty: boolean) => void;
}

/** One location's draft as the API answers it; the editor starts again from each new read (after a conflict). */
function LocationMenu({ client, merchantId, me, location, onDirty }: LocationMenuProps) {
  const load = useCallback(
    () =>
      client
        .GET('/v15/merchants/{merchant_id}/locations/{location_id}/menu_draft', {
          params: { path: { merchant_id: String(merchantId), location_id: String(location.id) } },
        })
        .then((answer) => answered(answer).menu_draft),
    [client, merchantId, location.id],
  );
  const { data, error, reload } = useLoaded(load);
  if (error) return <ErrorMessage error={error} />;
  if (!data) return <Progress label={`Loading the menu of ${location.name}…`} />;
  if (me.role === 'staff') return <ReadOnlyMenu draft={data} location={location} />;
  // A new read (a reload after someone else's change) has another version: the editor starts from it.
  return (
    <MenuEditor
      key={`${data.version} ${data.updated_at ?? ''}`}
      client={client}
      merchantId={merchantId}
      location={location}
      initial={data}
      onReload={reload}
      onDirty={onDirty}
    />
  );
}

/** What the location's menu is now, in words: draft, published, or none. */
function MenuState({ draft, location, canEdit }: { draft: MenuDraft; location: LocationName; canEdit: boolean }) {
  const publishedAt = draft.published_at ? formatTime(draft.published_at) : undefined;
  return (
    <section aria-labelledby="menu-state-heading" className="menu-state">
      <h2 id="menu-state-heading">{draft.state === 'draft' ? 'Draft, not published yet' : draft.state === 'published' ? 'Published' : 'No menu yet'}</h2>
      <p>
        {draft.state === 'draft'
          ? `This draft was saved${draft.updated_at ? ` ${formatTime(draft.updated_at)}` : ''}. Apps show ${publishedAt ? `the menu published ${publishedAt}` : 'no menu'} at ${location.name} until it is published.`
          : draft.state === 'published'
            ? `This is the menu apps show at ${location.name}${publishedAt ? `, published ${publishedAt}` : ''}.${canEdit ? ' Changes are saved as a draft, which apps do not see until it is published.' : ''}`
            : `Apps show no order-ahead menu at ${location.name}.${canEdit ? ' Add categories and items, save the draft, then publish it.' : ''}`}
      </p>
      <p className="hint">Version {draft.version}</p>
    </section>
  );
}

/** Staff read the menu: a table per category, and why they cannot change it. */
function ReadOnlyMenu({ draft, location }: { draft: MenuDraft; location: LocationName }) {
  return (
    <>
      <MenuState draft={draft} location={location} canEdit={false} />
      <p className="menu-role">You can read this menu. Editing, publishing and discarding it are for owners and managers.</p>
      {draft.menu ? draft.menu.categories.map((category) => <CategoryTable key={category.id} category={category} />) : null}
    </>
  );
}

function CategoryTable({ category }: { category: Menu['categories'][number] }) {
  const captionId = `menu-category-${category.id}`;
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-labelledby={captionId}>
      <table>
        <caption id={captionId}>{category.name}</caption>
        <thead>
          <tr>
            <th scope="col">Item</th>
            <th scope="col" className="number">
              Price
            </th>
            <th scope="col">Available</th>
            <th scope="col">Options</th>
          </tr>
        </thead>
        <tbody>
          {category.items.map((item) => (
            <tr key={item.id}>
              <th scope="row">{item.name}</th>
              <td className="number">{formatMoney(item.price_amount)}</td>
              <td>{item.available ? 'Yes' : 'Sold out'}</td>
              <td>{item.option_groups.map((group) => `${group.name}: ${group.options.map((option) => option.name).join(', ')}`).join('; ') || 'None'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

type Step = 'editing' | 'saving' | 'confirm-publish' | 'publishing' | 'confirm-discard' | 'discarding' | 'reloading';

interface EditorProps {
  client: LevelUpClient;
  merchantId: number;
  location: LocationName;
  initial: MenuDraft;
  onReload: () => void;
  onDirty: (dirty: boolean) => void;
}

/**
 * The editor of owners and managers: the draft's categories and items, saved with the version read (409: someone
 * else changed it; the merchant reloads), published or discarded after a confirmation. Focus moves to the result
 * of each action; moves, additions and removals are said in a polite status.
 */
function MenuEditor({ client, merchantId, location, initial, onReload, onDirty }: EditorProps) {
  const [draft, setDraft] = useState(initial);
  const [saved, setSaved] = useState(() => toModel(initial.menu));
  const [model, setModel] = useState(saved);
  const [step, setStep] = useState<Step>('editing');
  const [tried, setTried] = useState(false);
  const [rejected, setRejected] = useState<Problem[]>([]);
  /** The problems as of the last save tried: the summary changes on a save, not on each keystroke. */
  const [summary, setSummary] = useState<Problem[]>([]);
  const [conflict, setConflict] = useState(false);
  const { error, run: send } = useWrite();
  const [result, setResult] = useState<string>();
  const [said, setSaid] = useState('');
  const [focus, setFocus] = useState<{ id: string }>();
  const resultRef = useRef<HTMLParagraphElement>(null);
  const conflictRef = useRef<HTMLDivElement>(null);

  const dirty = model !== saved;
  useEffect(() => onDirty(dirty), [dirty, onDirty]);
  // A reload or a closed tab would lose unsaved edits: the browser asks first.
  useEffect(() => {
    if (!dirty) return;
    const ask = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [dirty]);

  useEffect(() => {
    if (focus) document.getElementById(focus.id)?.focus();
  }, [focus]);

  // Beside the fields, the problems follow the edits (once a save was tried).
  const problems = useMemo(() => (tried ? menuProblems(model) : []), [tried, model]);
  // The summary lists what its save found, less what has been fixed since (the API's until the next save).
  const listed = summary.filter(
    (entry) => rejected.includes(entry) || problems.some((problem) => problem.fieldId === entry.fieldId && problem.message === entry.message),
  );
  const byField: ShownProblems = useMemo(() => {
    const map = new Map<string, string[]>();
    for (const problem of [...problems, ...rejected]) map.set(problem.fieldId, [...(map.get(problem.fieldId) ?? []), problem.message]);
    return map;
  }, [problems, rejected]);

  function change(next: MenuModel, announcement?: string, focusId?: string) {
    setModel(next);
    setResult(undefined);
    // A confirmation asked about the draft as saved: an edit withdraws it.
    setStep((current) => (current === 'confirm-publish' || current === 'confirm-discard' ? 'editing' : current));
    if (announcement) setSaid(announcement);
    if (focusId) setFocus({ id: focusId });
  }

  /** After a change of the draft on the server: the answer is the new state, and the form starts from it. */
  function adopt(next: MenuDraft, message: string) {
    const fresh = toModel(next.menu);
    setDraft(next);
    setSaved(fresh);
    setModel(fresh);
    setTried(false);
    setRejected([]);
    setSummary([]);
    setResult(message);
  }

  /** An answer that is not a success: a stale version (offer the reload), the API's own problems, or the error. */
  function refused(answer: { error?: unknown; response: Response }) {
    const { status } = answer.response;
    const errors = answer.error as ApiErrors | undefined;
    if (status === 409 && errors?.[0]?.error.code === 'menu_draft_changed') {
      setConflict(true);
      return;
    }
    if (status === 422 && errors?.[0]?.error.code !== 'no_draft') {
      const answeredProblems = apiProblems(model, errors);
      setTried(true);
      setRejected(answeredProblems);
      setSummary(answeredProblems);
      setFocus({ id: 'menu-problems' });
      return;
    }
    answered(answer);
  }

  useEffect(() => {
    if (result) resultRef.current?.focus();
  }, [result]);
  useEffect(() => {
    if (conflict) conflictRef.current?.focus();
  }, [conflict]);

  const path = { merchant_id: String(merchantId), location_id: String(location.id) };

  /** Runs a request; on a failure the error shows beside the actions and the focus goes back to the button (`retryId`). */
  async function run(busy: Step, retryId: string, action: () => Promise<void>) {
    setStep(busy);
    setResult(undefined);
    await send(action, () => setFocus({ id: retryId }));
    setStep('editing');
  }

  function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setTried(true);
    setRejected([]);
    const found = menuProblems(model);
    setSummary(found);
    if (found.length > 0) {
      setFocus({ id: 'menu-problems' });
      return;
    }
    const menu = toMenu(model);
    void run('saving', 'menu-save', async () => {
      const answer = await sendDraftChange((key) =>
        client.PUT('/v15/merchants/{merchant_id}/locations/{location_id}/menu_draft', {
          params: { path, header: { 'Idempotency-Key': key } },
          body: { menu_draft: { version: draft.version, menu } },
        }),
      );
      if (answer.data) adopt(answer.data.menu_draft, 'Draft saved. Apps do not see it until you publish it.');
      else refused(answer);
    });
  }

  function publish() {
    void run('publishing', 'menu-publish', async () => {
      const answer = await sendDraftChange((key) =>
        client.POST('/v15/merchants/{merchant_id}/locations/{location_id}/menu_draft/publish', {
          params: { path, header: { 'Idempotency-Key': key } },
          body: { menu_draft: { version: draft.version } },
        }),
      );
      if (answer.data) adopt(answer.data.menu_draft, `Published. Apps now show this menu at ${location.name}.`);
      else refused(answer);
    });
  }

  function discard() {
    void run('discarding', 'menu-discard', async () => {
      const answer = await sendDraftChange((key) =>
        client.POST('/v15/merchants/{merchant_id}/locations/{location_id}/menu_draft/discard', {
          params: { path, header: { 'Idempotency-Key': key } },
          body: { menu_draft: { version: draft.version } },
        }),
      );
      if (answer.data)
        adopt(answer.data.menu_draft, answer.data.menu_draft.state === 'published' ? 'Draft discarded. This is the published menu again.' : 'Draft discarded.');
      else refused(answer);
    });
  }

  const busy = step === 'saving' || step === 'publishing' || step === 'discarding' || step === 'reloading';

  return (
    <>
      <MenuState draft={draft} location={location} canEdit />
      <p className="visually-hidden" role="status" aria-live="polite">
        {said}
      </p>
      {result ? (
        <p className="menu-result" role="status" tabIndex={-1} ref={resultRef}>
          {result}
        </p>
      ) : null}
      {conflict ? (
        <div className="error" role="alert" tabIndex={-1} ref={conflictRef}>
          <p>
            Someone else changed this menu (saved, published or discarded it) after you opened it. Your changes are not saved. Load the menu as it is now, then
            make your changes again.
          </p>
          <button
            type="button"
            onClick={() => {
              setStep('reloading');
              onReload();
            }}
            disabled={step === 'reloading'}
          >
            Load the menu as it is now
          </button>
        </div>
      ) : null}
      {listed.length > 0 ? (
        <div className="error" id="menu-problems" role="alert" tabIndex={-1}>
          <p>
            {listed.length === 1 ? 'One thing to fix' : `${listed.length} things to fix`} in this menu before it can be saved
            {rejected.length > 0 ? ' (as the API answered)' : ''}:
          </p>
          <ul>
            {listed.map((problem, index) => (
              <li key={`${problem.fieldId} ${index}`}>
                <button type="button" className="link" onClick={() => setFocus({ id: problem.fieldId })}>
                  {problem.message}
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <form className="menu-form" aria-label={`Menu of ${location.name}`} onSubmit={save} noValidate>
        <MenuForm model={model} onChange={change} problems={byField} />
        <div className="menu-actions">
          <ErrorMessage error={error} />
          {step === 'saving' ? (
            <Progress label="Saving the draft…" />
          ) : step === 'publishing' ? (
            <Progress label="Publishing…" />
          ) : step === 'discarding' ? (
            <Progress label="Discarding the draft…" />
          ) : step === 'reloading' ? (
            <Progress label="Loading the menu again…" />
          ) : step === 'confirm-publish' ? (
            <Confirm
              question={`Publish this draft at ${location.name}? Apps show it at once, in place of ${draft.published_at ? 'the menu published now' : 'no menu'}.`}
              yes="Yes, publish"
              onYes={publish}
              onNo={() => {
                setStep('editing');
                setFocus({ id: 'menu-publish' });
              }}
            />
          ) : step === 'confirm-discard' ? (
            <Confirm
              question="Discard this draft? Everything saved in it since the last publish is lost. Apps keep showing the published menu."
              yes="Yes, discard the draft"
              onYes={discard}
              onNo={() => {
                setStep('editing');
                setFocus({ id: 'menu-discard' });
              }}
            />
          ) : (
            <div className="actions">
              <button type="submit" id="menu-save" disabled={busy || conflict}>
                Save draft
              </button>
              {dirty ? (
                <button type="button" className="secondary" onClick={() => change(saved, 'Your changes are undone.')}>
                  Undo my changes
                </button>
              ) : null}
              {draft.state === 'draft' && !dirty ? (
                <>
                  <button type="button" id="menu-publish" onClick={() => setStep('confirm-publish')}>
                    Publish…
                  </button>
                  <button type="button" id="menu-discard" className="secondary" onClick={() => setStep('confirm-discard')}>
                    Discard draft…
                  </button>
                </>
              ) : null}
              {dirty ? <p className="hint">Save the draft before you publish it.</p> : null}
            </div>
          )}
        </div>
      </form>
    </>
  );
}

function Confirm({ question, yes, onYes, onNo }: { question: string; yes: string; onYes: () => void; onNo: () => void }) {
  const yesButton = useRef<HTMLButtonElement>(null);
  useEffect(() => yesButton.current?.focus(), []);
  return (
    <div className="confirm" role="group" aria-labelledby="menu-confirm-question">
      <p id="menu-confirm-question">{question}</p>
      <div className="actions">
        <button type="button" ref={yesButton} onClick={onYes}>
          {yes}
        </button>
        <button type="button" className="secondary" onClick={onNo}>
          Cancel
        </button>
      </div>
    </div>
  );
}
