import { useCallback } from 'react';
import { Link, Route, Routes } from 'react-router';
import { WhenLocations } from '../ErrorMessage.tsx';
import { ColumnHeadings, ScrollingTable } from '../tables.tsx';
import { readLocations, useLoaded } from '../loaded.ts';
import { addressOf, fulfillmentInWords, nameOf } from '../locations-hours.ts';
import type { PageProps } from '../session.ts';
import { LocationCreate } from './LocationsCreate.tsx';
import { LocationDetail } from './LocationsDetail.tsx';
import { PageNotFound } from '../not-found.tsx';

/**
 * Locations (docs/console.md, "Locations"): the merchant's locations, hidden ones included; each location's
 * settings (hours, ways to order, delivery area, shown in apps) and picture; a new location (owners). The addresses
 * under /locations/ are this page's own (react-router descendant routes).
 */
export function Locations(props: PageProps) {
  return (
    <Routes>
      <Route index element={<LocationList {...props} />} />
      <Route path="new" element={<LocationCreate {...props} />} />
      <Route path=":locationId" element={<LocationDetail {...props} />} />
      <Route path="*" element={<PageNotFound back="/locations" backLabel="Go to the locations" />} />
    </Routes>
  );
}

/** Every location of the merchant (`.../all_locations`, all pages, by id), hidden ones included. */
function LocationList({ client, merchantId, me }: PageProps) {
  const load = useCallback(() => readLocations(client, merchantId), [client, merchantId]);
  const { data: locations, error } = useLoaded(load);

  return (
    <>
      <h1>Locations</h1>
      {me.role === 'owner' ? (
        <p>
          <Link className="button-link" to="/locations/new">
            Add a location
          </Link>
        </p>
      ) : (
        <p className="hint">
          Owners add locations.{' '}
          {me.role === 'manager' ? 'You change their hours, whether apps show them, and their picture.' : 'You can read each location’s settings.'}
        </p>
      )}
      <WhenLocations locations={locations} error={error} none="This merchant has no location yet.">
        {(locations) => (
          <ScrollingTable captionId="locations-caption" caption={<>Your locations ({locations.length})</>}>
            <ColumnHeadings columns={['Location', 'Address', 'Ways to order', 'In apps']} />
            <tbody>
              {locations.map((location) => (
                <tr key={location.id}>
                  <th scope="row">
                    <Link to={`/locations/${location.id}`}>{nameOf(location)}</Link>
                  </th>
                  <td>{addressOf(location)}</td>
                  <td>{fulfillmentInWords(location.fulfillment_types)}</td>
                  <td>{location.shown ? 'Shown' : 'Hidden'}</td>
                </tr>
              ))}
            </tbody>
          </ScrollingTable>
        )}
      </WhenLocations>
    </>
  );
}
