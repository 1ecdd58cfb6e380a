import { useCallback, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { type components, type LevelUpClient } from '../../../clients/typescript/index.ts';
import { ErrorMessage, Progress, WhenLocations } from '../ErrorMessage.tsx';
import { SelectField } from '../fields.tsx';
import { formatMoney, formatTime, utcDate } from '../format.ts';
import { useLocations } from '../loaded.ts';
import { answered, type PageProps } from '../session.ts';
import { ColumnHeadings, LinkPager, ScrollingTable, nextPosition, useLinkPages, type LinkPage, type PagePosition } from '../tables.tsx';

type OrderRow = components['schemas']['ManagedOrderRow'];
type OrderState = OrderRow['state'];
const STATES: readonly { value: OrderState | ''; label: string }[] = [
  { value: '', label: 'Any' },
  { value: 'completed', label: 'Completed' },
  { value: 'refunded', label: 'Refunded' },
];
const isState = (value: string | null): value is OrderState => value === 'completed' || value === 'refunded';
const isDay = (value: string | null): value is string => value !== null && /^\d{4}-\d{2}-\d{2}$/.test(value);

/** One location's orders of one UTC day, newest first, 50 a page, optionally only completed or refunded ones. */
export function Orders({ client, merchantId }: PageProps) {
  const [search, setSearch] = useSearchParams();
  const { data: locations, error } = useLocations(client, merchantId);
  // Today when the page opened (a UTC day, as the home page counts days).
  const [today] = useState(() => utcDate(Date.now()));

  // The filters live in the address, so a reload, a shared link or "back" from an order shows the same list.
  const locationId = search.get('location') ?? (locations?.[0] ? String(locations[0].id) : undefined);
  const dayParam = search.get('day');
  const stateParam = search.get('state');
  const day = isDay(dayParam) ? dayParam : today;
  const state: OrderState | '' = isState(stateParam) ? stateParam : '';

  function applyFilters(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const next = new URLSearchParams();
    for (const name of ['location', 'day', 'state']) {
      const value = form.get(name);
      if (typeof value === 'string' && value !== '') next.set(name, value);
    }
    setSearch(next);
  }

  return (
    <>
      <h1>Orders</h1>
      <WhenLocations locations={locations} error={error} none="This merchant has no location yet, so no orders.">
        {(locations) => (
          <>
            {/* key: the form's fields start from the address again when it changes (back, a link). */}
            <form className="filters" aria-label="Filter orders" onSubmit={applyFilters} key={search.toString()}>
              <SelectField
                label="Location"
                name="location"
                defaultValue={locationId}
                options={locations.map((location) => ({ value: location.id, label: location.name }))}
              />
              <label>
                Day (UTC)
                <input type="date" name="day" defaultValue={day} required />
              </label>
              <SelectField label="State" name="state" defaultValue={state} options={STATES} />
              <button type="submit">Show orders</button>
            </form>
            {locationId ? (
              <OrderPages
                key={`${locationId} ${day} ${state}`}
                client={client}
                merchantId={merchantId}
                locationId={locationId}
                locationName={locations.find((location) => String(location.id) === locationId)?.name ?? `Location ${locationId}`}
                day={day}
                state={state || undefined}
                listAddress={search.toString()}
              />
            ) : null}
          </>
        )}
      </WhenLocations>
    </>
  );
}

interface OrderPagesProps {
  client: LevelUpClient;
  merchantId: number;
  locationId: string;
  locationName: string;
  day: string;
  state: OrderState | undefined;
  listAddress: string;
}

/** The pages of one filter (see useLinkPages). */
function OrderPages({ client, merchantId, locationId, locationName, day, state, listAddress }: OrderPagesProps) {
  const fetchPage = useCallback(
    async (position: PagePosition): Promise<LinkPage<OrderRow>> => {
      const answer = await client.GET('/v15/merchants/{merchant_id}/orders', {
        params: { path: { merchant_id: String(merchantId) }, query: { location_id: locationId, day, ...(state ? { state } : {}), ...position } },
      });
      // 204: nothing (more) on this day.
      if (answer.response.status === 204) return { rows: [], next: undefined };
      return { rows: answered(answer).map(({ order }) => order), next: nextPosition(answer.response) };
    },
    [client, merchantId, locationId, day, state],
  );
  const { pageNumber, error, page, previous, next } = useLinkPages(fetchPage);
  const caption = `${state === 'completed' ? 'Completed orders' : state === 'refunded' ? 'Refunded orders' : 'Orders'} at ${locationName} on ${day} (UTC), page ${pageNumber}`;

  if (error) return <ErrorMessage error={error} />;
  if (!page) return <Progress label="Loading orders…" />;
  return (
    <div>
      {page.rows.length === 0 ? (
        <p id="orders-caption">{pageNumber === 1 ? `No orders at ${locationName} on ${day} (UTC) for this filter.` : 'No more orders.'}</p>
      ) : (
        <ScrollingTable captionId="orders-caption" caption={caption}>
          <ColumnHeadings columns={['Time', 'Customer', { figure: 'Sale' }, { figure: 'Tip' }, { figure: 'Total' }, 'State']} />
          <tbody>
            {page.rows.map((order) => (
              <tr key={order.uuid}>
                <th scope="row">
                  <Link to={`/orders/${order.uuid}`} state={{ list: listAddress }}>
                    {formatTime(order.created_at)}
                  </Link>
                </th>
                <td>{order.user_display_name}</td>
                <td className="number">{formatMoney(order.spend_amount)}</td>
                <td className="number">{formatMoney(order.tip_amount)}</td>
                <td className="number">{formatMoney(order.total_amount)}</td>
                <td>{order.state === 'refunded' ? 'Refunded' : 'Completed'}</td>
              </tr>
            ))}
          </tbody>
        </ScrollingTable>
      )}
      <LinkPager label="Pages of orders" previous={previous} next={next} />
    </div>
  );
}
