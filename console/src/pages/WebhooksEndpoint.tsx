import { useCallback, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ConfirmedAction, ResultLine } from '../confirm.tsx';
import { ErrorMessage, Progress, WhenLoaded } from '../ErrorMessage.tsx';
import { ColumnHeadings, ScrollingTable } from '../tables.tsx';
import { SelectField } from '../fields.tsx';
import { formatTime } from '../format.ts';
import { useLoaded } from '../loaded.ts';
import { useWrite } from '../write.ts';
import { answered, type PageProps } from '../session.ts';
import {
  DELIVERY_STATE_WORDS,
  eventIdAt,
  eventTypeWords,
  lastAnswerWords,
  REPLAY_PERIODS,
  replayRefusal,
  type Delivery,
  useEndpoints,
  type Endpoint,
} from '../webhooks-model.ts';
import { SecretOnce } from './WebhooksSecret.tsx';

/** One endpoint: what it takes, its latest deliveries, and the owner's replay, secret change and delete. */
export function WebhookEndpoint(props: PageProps) {
  const { id = '' } = useParams();
  const { data: endpoints, error } = useEndpoints(props);
  const endpoint = endpoints?.find((candidate) => candidate.id === id);

  return (
    <>
      <p>
        <Link to="/webhooks">Back to the webhooks</Link>
      </p>
      <h1>Webhook endpoint</h1>
      <WhenLoaded data={endpoints} error={error} progress="Loading the endpoint…">
        {() =>
          !endpoint ? (
            <p>This endpoint was not found. It may have been deleted.</p>
          ) : (
            <>
              <dl className="facts">
                <dt>Address</dt>
                <dd className="url">{endpoint.url}</dd>
                <dt>Events</dt>
                <dd>{endpoint.events.map(eventTypeWords).join(', ')}</dd>
                <dt>Added</dt>
                <dd>{formatTime(endpoint.created_at)}</dd>
                <dt>Given up after 7 days</dt>
                <dd>
                  {endpoint.failed_deliveries === 0
                    ? 'None'
                    : `${endpoint.failed_deliveries}${endpoint.last_failure ? `, the last ${formatTime(endpoint.last_failure.failed_at)}` : ''}`}
                </dd>
              </dl>
              <Deliveries {...props} endpoint={endpoint} />
              {props.me.role === 'owner' ? (
                <>
                  <RollSecret {...props} endpoint={endpoint} />
                  <DeleteEndpoint {...props} endpoint={endpoint} />
                </>
              ) : (
                <p className="hint">Only an owner can replay events, change the signing secret or delete this endpoint.</p>
              )}
            </>
          )
        }
      </WhenLoaded>
    </>
  );
}

/** The endpoint's latest deliveries (`GET .../deliveries`, newest first; 204 is none), and the owner's replay. */
function Deliveries({ client, me, endpoint }: PageProps & { endpoint: Endpoint }) {
  const load = useCallback(async (): Promise<Delivery[]> => {
    const answer = await client.GET('/v15/webhook_endpoints/{id}/deliveries', { params: { path: { id: endpoint.id } } });
    if (answer.response.status === 204) return [];
    return answered(answer).map(({ delivery }) => delivery);
  }, [client, endpoint.id]);
  const { data: deliveries, error, reload, loading } = useLoaded(load);
  // A click while a read is under way would start it again, and a fast clicker would see no answer at all.
  const refreshing = loading && deliveries !== undefined;

  return (
    <section aria-labelledby="deliveries-heading">
      <h2 id="deliveries-heading">Deliveries</h2>
      <p className="hint">
        The latest 50 events sent to this address, newest first. A failed attempt is tried again after 10 seconds, 1 minute, 5 minutes, 30 minutes, 2 hours, 6
        hours, then every 12 hours, for 7 days.
      </p>
      <div className="actions">
        <button type="button" className="secondary" aria-disabled={refreshing} onClick={refreshing ? undefined : reload}>
          Refresh the deliveries
        </button>
      </div>
      {refreshing ? <Progress label="Refreshing the deliveries…" /> : null}
      <WhenLoaded data={deliveries} error={error} progress="Loading the deliveries…">
        {(deliveries) =>
          deliveries.length === 0 ? (
            <p>Nothing was sent to this address yet.</p>
          ) : (
            <ScrollingTable captionId="deliveries-caption" caption={<>Latest deliveries to {endpoint.url}</>}>
              <ColumnHeadings columns={['Event', 'State', { figure: 'Attempts' }, 'Last answer', 'Last attempt', 'Next attempt', 'Sent by', 'Event id']} />
              <tbody>
                {deliveries.map((delivery) => (
                  <tr key={delivery.event_id}>
                    <th scope="row">{eventTypeWords(delivery.event_type)}</th>
                    <td>{DELIVERY_STATE_WORDS[delivery.state]}</td>
                    <td className="number">{delivery.attempts}</td>
                    <td>{lastAnswerWords(delivery)}</td>
                    <td>{formatTime(delivery.last_attempt_at)}</td>
                    <td>{delivery.next_attempt_at ? formatTime(delivery.next_attempt_at) : '—'}</td>
                    <td>{delivery.replay_id ? `Replay ${delivery.replay_id}` : 'The event'}</td>
                    <td>
                      <code>{delivery.event_id}</code>
                    </td>
                  </tr>
                ))}
              </tbody>
            </ScrollingTable>
          )
        }
      </WhenLoaded>
      {me.role === 'owner' ? <Replay client={client} endpoint={endpoint} onReplayed={reload} /> : null}
    </section>
  );
}

/** Sends again, in order, the endpoint's events of a recent period (`POST .../replays`); its limits' 429 in words. */
function Replay({ client, endpoint, onReplayed }: Pick<PageProps, 'client'> & { endpoint: Endpoint; onReplayed: () => void }) {
  const [period, setPeriod] = useState<string>(REPLAY_PERIODS[1][0]);
  const { busy: replaying, error, run } = useWrite();
  const [result, setResult] = useState<string>();

  async function replay() {
    setResult(undefined);
    await run(async () => {
      const after = eventIdAt(Date.now() - Number(period));
      const answer = await client.POST('/v15/webhook_endpoints/{id}/replays', { params: { path: { id: endpoint.id } }, body: { replay: { after } } });
      if (answer.response.status === 429) throw replayRefusal(answer.response);
      const { queued, id } = answered(answer).replay;
      setResult(
        queued === 0
          ? 'No event of that period was sent to this endpoint: nothing to replay.'
          : `${queued} event${queued === 1 ? ' is' : 's are'} sent again, in order (replay ${id}). Refresh the deliveries to follow them.`,
      );
      onReplayed();
    });
  }

  const periodWords = REPLAY_PERIODS.find(([value]) => value === period)?.[1] ?? '';
  return (
    <div className="replay">
      <h3>Replay</h3>
      <p>
        Sends again the events this endpoint takes, with the same ids and contents, oldest first (your systems ignore an id they already handled). At most 1,000
        events, 3 replays every 15 minutes and 10 a day.
      </p>
      <ErrorMessage error={error} />
      {result ? <ResultLine className="done" text={result} /> : null}
      <div className="filters">
        <SelectField label="Events of" name="period" value={period} onChange={setPeriod} options={REPLAY_PERIODS.map(([value, label]) => ({ value, label }))} />
        <button type="button" disabled={replaying} onClick={() => void replay()}>
          Replay the events of {periodWords}
        </button>
      </div>
      {replaying ? <Progress label="Queuing the replay…" /> : null}
    </div>
  );
}

/** A new signing secret (`POST .../secrets`), after a confirmation; the old one keeps signing for 24 hours. */
function RollSecret({ client, endpoint }: PageProps & { endpoint: Endpoint }) {
  const [secret, setSecret] = useState<string>();

  async function roll() {
    const answer = await client.POST('/v15/webhook_endpoints/{id}/secrets', { params: { path: { id: endpoint.id } } });
    setSecret(answered(answer).webhook_endpoint.secret ?? '');
  }

  return (
    <section aria-labelledby="secret-section-heading">
      <h2 id="secret-section-heading">Signing secret</h2>
      {secret ? (
        <SecretOnce secret={secret} url={endpoint.url} onDone={() => setSecret(undefined)} />
      ) : (
        <ConfirmedAction
          question="Make a new signing secret? For 24 hours deliveries carry two signatures, one with the current secret and one with the new, so your receiver can switch without missing any. Then only the new one signs."
          confirmLabel="Yes, make a new secret"
          progress="Making a new secret…"
          perform={roll}
        >
          {(ask) => (
            <>
              <p>The secret is shown only when it is made. If it is lost or leaked, make a new one.</p>
              <button type="button" onClick={ask}>
                Change the signing secret
              </button>
            </>
          )}
        </ConfirmedAction>
      )}
    </section>
  );
}

/** Deletes the endpoint (`DELETE .../{id}`) after a confirmation, then returns to the list, which says so. */
function DeleteEndpoint({ client, endpoint }: PageProps & { endpoint: Endpoint }) {
  const navigate = useNavigate();

  async function remove() {
    const answer = await client.DELETE('/v15/webhook_endpoints/{id}', { params: { path: { id: endpoint.id } } });
    // 404: it was already deleted (by someone else): the list shows the same either way.
    if (!answer.response.ok && answer.response.status !== 404) answered(answer);
    void navigate('/webhooks', { state: { deleted: endpoint.url } });
  }

  return (
    <section aria-labelledby="delete-heading">
      <h2 id="delete-heading">Delete</h2>
      <ConfirmedAction
        question={`Delete the endpoint ${endpoint.url}? No event is sent to it any more, and deliveries waiting for it are dropped. It cannot be undone.`}
        confirmLabel="Yes, delete the endpoint"
        progress="Deleting the endpoint…"
        perform={remove}
      >
        {(ask) => (
          <button type="button" onClick={ask}>
            Delete this endpoint
          </button>
        )}
      </ConfirmedAction>
    </section>
  );
}
