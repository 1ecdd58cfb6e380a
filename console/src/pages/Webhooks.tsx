import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, Route, Routes, useLocation } from 'react-router';
import { ErrorMessage, Progress, WhenLoaded } from '../ErrorMessage.tsx';
import { ColumnHeadings, ScrollingTable } from '../tables.tsx';
import { formatTime } from '../format.ts';
import { answered, type PageProps } from '../session.ts';
import { eventTypeWords, MERCHANT_EVENT_TYPES, useEndpoints, type EventType } from '../webhooks-model.ts';
import { WebhookEndpoint } from './WebhooksEndpoint.tsx';
import { SecretOnce } from './WebhooksSecret.tsx';
import { PageNotFound } from '../not-found.tsx';
import { useWrite } from '../write.ts';

/** The API keeps at most this many endpoints per merchant (docs/events.md). */
const MAX_ENDPOINTS = 10;

/**
 * Webhooks (docs/console.md, "Webhooks"): the merchant's endpoints, each one's deliveries, replays, the secret and the
 * delete. Owners change; managers read; staff are told it is not theirs (the API answers them 403).
 */
export function Webhooks(props: PageProps) {
  if (props.me.role === 'staff') {
    return (
      <>
        <h1>Webhooks</h1>
        <p>Webhooks are for owners and managers. Ask an owner if your systems need the merchant&apos;s events.</p>
      </>
    );
  }
  return (
    <Routes>
      <Route index element={<WebhookList {...props} />} />
      <Route path=":id" element={<WebhookEndpoint {...props} />} />
      <Route path="*" element={<PageNotFound back="/webhooks" backLabel="Go to the webhooks" />} />
    </Routes>
  );
}

function WebhookList(props: PageProps) {
  const { me } = props;
  const isOwner = me.role === 'owner';
  const { data: endpoints, error, reload } = useEndpoints(props);
  const deleted = (useLocation().state as { deleted?: unknown } | null)?.deleted;

  return (
    <>
      <h1>Webhooks</h1>
      <p>
        A webhook sends the merchant&apos;s events (orders completed and refunded, gift card value added and removed, campaigns unlocked) to a web address of
        your systems as they happen, signed so your systems can check they come from us.
      </p>
      {typeof deleted === 'string' ? (
        <p role="status" className="done">
          The endpoint {deleted} is deleted.
        </p>
      ) : null}
      {isOwner ? null : (
        <p className="hint">You can see the endpoints and their deliveries. Only an owner can add or delete an endpoint, change its secret or replay events.</p>
      )}
      <section aria-labelledby="endpoints-heading">
        <h2 id="endpoints-heading">Endpoints</h2>
        <WhenLoaded data={endpoints} error={error} progress="Loading the endpoints…">
          {(endpoints) =>
            endpoints.length === 0 ? (
              <p>No endpoint yet: no event is sent.</p>
            ) : (
              <ScrollingTable
                captionId="endpoints-caption"
                caption={
                  <>
                    Webhook endpoints ({endpoints.length} of at most {MAX_ENDPOINTS})
                  </>
                }
              >
                <ColumnHeadings columns={['Address', 'Events', 'Added', { figure: 'Given up' }]} />
                <tbody>
                  {endpoints.map((endpoint) => (
                    <tr key={endpoint.id}>
                      <th scope="row">
                        <Link to={endpoint.id}>{endpoint.url}</Link>
                      </th>
                      <td>{endpoint.events.length === MERCHANT_EVENT_TYPES.length ? 'All events' : endpoint.events.map(eventTypeWords).join(', ')}</td>
                      <td>{formatTime(endpoint.created_at)}</td>
                      <td className="number">{endpoint.failed_deliveries}</td>
                    </tr>
                  ))}
                </tbody>
              </ScrollingTable>
            )
          }
        </WhenLoaded>
      </section>
      {isOwner && endpoints ? <AddEndpoint {...props} count={endpoints.length} onAdded={reload} /> : null}
    </>
  );
}

/** The owner's form: an address and the events it takes; the answer's secret is shown once. */
function AddEndpoint({ client, count, onAdded }: PageProps & { count: number; onAdded: () => void }) {
  const { busy: adding, error, run } = useWrite();
  const [created, setCreated] = useState<{ secret: string; url: string }>();
  const [stored, setStored] = useState(false);
  const storedNote = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    if (stored) storedNote.current?.focus();
  }, [stored]);

  async function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const address = form.get('url');
    const url = typeof address === 'string' ? address.trim() : '';
    const events = form.getAll('events').map(String) as EventType[];
    setStored(false);
    await run(async () => {
      // No automatic retry: the create takes no Idempotency-Key, and a second create would make a second endpoint.
      const answer = await client.POST('/v15/webhook_endpoints', { body: { webhook_endpoint: { url, events } } });
      const endpoint = answered(answer).webhook_endpoint;
      setCreated({ secret: endpoint.secret ?? '', url: endpoint.url });
      onAdded();
    });
  }

  return (
    <section aria-labelledby="add-heading">
      <h2 id="add-heading">Add an endpoint</h2>
      {created ? (
        <SecretOnce
          secret={created.secret}
          url={created.url}
          onDone={() => {
            setCreated(undefined);
            setStored(true);
          }}
        />
      ) : count >= MAX_ENDPOINTS ? (
        <p>There are {MAX_ENDPOINTS} endpoints, the most a merchant can have. Delete one to add another.</p>
      ) : (
        <>
          {stored ? (
            <p ref={storedNote} tabIndex={-1} role="status" className="done">
              The endpoint is added. Its deliveries are on its page.
            </p>
          ) : null}
          <ErrorMessage error={error} />
          <form className="webhook-form" onSubmit={(event) => void add(event)}>
            <label>
              Address (https)
              <input name="url" type="url" required maxLength={2048} placeholder="https://example.com/levelup-events" autoComplete="url" />
            </label>
            <fieldset>
              <legend>Events to send</legend>
              {MERCHANT_EVENT_TYPES.map(([type, words]) => (
                <label key={type} className="check">
                  <input type="checkbox" name="events" value={type} defaultChecked />
                  {words} <span className="hint">({type})</span>
                </label>
              ))}
            </fieldset>
            {adding ? <Progress label="Adding the endpoint…" /> : null}
            <button type="submit" disabled={adding}>
              Add the endpoint
            </button>
          </form>
        </>
      )}
    </section>
  );
}
