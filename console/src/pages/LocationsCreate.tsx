import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { withIdempotencyKey } from '../../../clients/typescript/index.ts';
import { ErrorMessage, Progress } from '../ErrorMessage.tsx';
import { SelectField } from '../fields.tsx';
import { type FulfillmentType } from '../locations-hours.ts';
import { answered, asConsoleError, ConsoleError, type PageProps } from '../session.ts';
import { FulfillmentFieldset } from './LocationsDetail.tsx';

/** The API's bounds on a new location (docs/merchant-api.md, "Locations": creation's fields and bounds). */
const LIMITS = { name: 100, address: 200, place: 100, postalCode: 20, phone: 40, radius: 100_000 } as const;

/** Every IANA time zone this browser knows, the browser's own first chosen; UTC when the list is not available. */
function timeZones(): { zones: string[]; own: string } {
  const own = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return { zones: zones.includes(own) ? zones : [own, ...zones], own };
}

const text = (form: FormData, name: string): string => {
  const value = form.get(name);
  return typeof value === 'string' ? value.trim() : '';
};

/** A new location (owners; `POST .../locations`): its address, place, time zone and ways to order. Hours are set on its page. */
export function LocationCreate({ client, merchantId, me }: PageProps) {
  const navigate = useNavigate();
  const [{ zones, own }] = useState(timeZones);
  // In store is the usual start; the fieldset asks the delivery radius only while delivery is ticked.
  const [fulfillment, setFulfillment] = useState<FulfillmentType[]>(['in_store']);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<ConsoleError>();
  const errorBox = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (error) errorBox.current?.focus();
  }, [error]);

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(undefined);
    const form = new FormData(event.currentTarget);
    if (fulfillment.length === 0) {
      setError(new ConsoleError('Choose at least one way to order.', 422, undefined));
      return;
    }
    const optional = (name: string) => text(form, name) || null;
    const location = {
      name: optional('name'),
      street_address: text(form, 'street_address'),
      extended_address: text(form, 'extended_address'),
      locality: text(form, 'locality'),
      region: text(form, 'region'),
      postal_code: text(form, 'postal_code'),
      phone: optional('phone'),
      latitude: Number(text(form, 'latitude')),
      longitude: Number(text(form, 'longitude')),
      time_zone: text(form, 'time_zone'),
      fulfillment_types: fulfillment,
      delivery_radius_m: fulfillment.includes('delivery') ? Number(text(form, 'delivery_radius_m')) : null,
    };
    setSaving(true);
    try {
      const answer = await withIdempotencyKey(
        (key) =>
          client.POST('/v15/merchants/{merchant_id}/locations', {
            params: { path: { merchant_id: String(merchantId) }, header: { 'Idempotency-Key': key } },
            body: { location },
          }),
        { attempts: 3 },
      );
      const created = answered(answer).location;
      void navigate(`/locations/${created.id}`, { state: { created: true } });
    } catch (failure) {
      setError(asConsoleError(failure));
      setSaving(false);
    }
  }

  return (
    <>
      <p>
        <Link to="/locations">Back to the locations</Link>
      </p>
      <h1>Add a location</h1>
      {me.role !== 'owner' ? (
        <p>Only an owner adds locations. Ask the owner of this merchant.</p>
      ) : (
        <form className="location-create" onSubmit={(event) => void create(event)} aria-label="New location">
          <p className="hint">Apps list the location as soon as it is added. Set its opening hours and picture on its page next.</p>
          <label>
            Name (optional, what staff and orders call it)
            <input name="name" maxLength={LIMITS.name} />
          </label>
          <fieldset>
            <legend>Address</legend>
            <label>
              Street address
              <input name="street_address" required maxLength={LIMITS.address} autoComplete="address-line1" />
            </label>
            <label>
              Address line 2 (optional)
              <input name="extended_address" maxLength={LIMITS.address} autoComplete="address-line2" />
            </label>
            <label>
              City
              <input name="locality" required maxLength={LIMITS.place} autoComplete="address-level2" />
            </label>
            <label>
              State or region
              <input name="region" required maxLength={LIMITS.place} autoComplete="address-level1" />
            </label>
            <label>
              Postal code
              <input name="postal_code" required maxLength={LIMITS.postalCode} autoComplete="postal-code" />
            </label>
            <label>
              Phone (optional)
              <input name="phone" type="tel" maxLength={LIMITS.phone} autoComplete="tel" />
            </label>
          </fieldset>
          <fieldset>
            <legend>Where it is</legend>
            <p className="hint" id="place-hint">
              In decimal degrees, as a map app shows them (for example 42.3519 and -71.0446). Apps sort locations by distance with them.
            </p>
            <label>
              Latitude
              <input name="latitude" type="number" required min={-90} max={90} step="any" aria-describedby="place-hint" />
            </label>
            <label>
              Longitude
              <input name="longitude" type="number" required min={-180} max={180} step="any" aria-describedby="place-hint" />
            </label>
            <SelectField
              label="Time zone (opening hours are read in it)"
              name="time_zone"
              defaultValue={own}
              options={zones.map((zone) => ({ value: zone, label: zone }))}
            />
          </fieldset>
          <FulfillmentFieldset
            chosen={fulfillment}
            onChange={setFulfillment}
            radiusInput={<input name="delivery_radius_m" type="number" inputMode="numeric" required min={1} max={LIMITS.radius} step={1} />}
          />
          <div ref={errorBox} tabIndex={-1}>
            <ErrorMessage error={error} />
          </div>
          {saving ? <Progress label="Adding the location…" /> : null}
          <button type="submit" disabled={saving}>
            Add the location
          </button>
        </form>
      )}
    </>
  );
}
