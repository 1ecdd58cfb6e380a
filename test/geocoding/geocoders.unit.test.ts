import { GeocodeCommand } from '@aws-sdk/client-geo-places';
import { describe, expect, it } from 'vitest';
import { ACCEPTED_PLACE_TYPES, AmazonLocationGeocoder, geocodeRequest } from '#shared/geocoding/amazon-location.ts';
import { sandboxPosition, SandboxGeocoder } from '#shared/geocoding/sandbox.ts';
import type { PostalAddress } from '#shared/geocoding/geocoder.ts';

const ARCH_STREET: PostalAddress = { street_address: '101 Arch Street', extended_address: 'Suite 555', locality: 'Boston', region: 'MA', postal_code: '02114' };

describe('the sandbox geocoder', () => {
  it("places an address at its ZIP code's centroid, the same every time", async () => {
    const position = await new SandboxGeocoder().geocode(ARCH_STREET);
    expect(position).toEqual({ latitude: 42.3611, longitude: -71.0682 });
    expect(await new SandboxGeocoder().geocode({ ...ARCH_STREET, street_address: '1 Other St', locality: 'Anywhere' })).toEqual(position);
  });

  it('takes ZIP+4 and a state by name, in any case', () => {
    const expected = sandboxPosition(ARCH_STREET);
    for (const postal_code of ['02114-1234', '021141234', ' 02114 ']) expect(sandboxPosition({ postal_code, region: 'MA' })).toEqual(expected);
    for (const region of ['ma', 'Massachusetts', 'MASSACHUSETTS']) expect(sandboxPosition({ postal_code: '02114', region })).toEqual(expected);
  });

  it('does not place an unknown or malformed postal code, nor one in another state than the region', () => {
    for (const postal_code of ['00000', '2114', 'ABCDE', 'K1A 0B1', '']) expect(sandboxPosition({ postal_code, region: 'MA' }), postal_code).toBeUndefined();
    expect(sandboxPosition({ postal_code: '02114', region: 'TX' })).toBeUndefined();
    expect(sandboxPosition({ postal_code: '02114', region: 'New York' })).toBeUndefined();
  });

  it('places US territories by their ZIP codes, and leaves a region it does not know unchecked', () => {
    expect(sandboxPosition({ postal_code: '00601', region: 'PR' })).toEqual({ latitude: 18.16, longitude: -66.72 });
    expect(sandboxPosition({ postal_code: '00601', region: 'Puerto Rico' })).toEqual({ latitude: 18.16, longitude: -66.72 });
  });
});

describe('the Amazon Location Service geocoder', () => {
  /** A stand-in for the Places client that records the request and answers like the service. */
  function placesClient(resultItems: unknown[]) {
    const sent: GeocodeCommand[] = [];
    return {
      sent,
      client: {
        send: async (command: GeocodeCommand) => {
          sent.push(command);
          return { PricingBucket: 'Core', ResultItems: resultItems };
        },
      } as never,
    };
  }

  it('asks for one stored-use result of at least postal-code precision, in the configured countries, without the unit', () => {
    expect(geocodeRequest(ARCH_STREET, ['USA'])).toEqual({
      QueryText: '101 Arch Street, Boston, MA 02114',
      MaxResults: 1,
      Filter: { IncludeCountries: ['USA'], IncludePlaceTypes: ACCEPTED_PLACE_TYPES },
      IntendedUse: 'Storage',
    });
    expect(ACCEPTED_PLACE_TYPES).not.toContain('Locality');
  });

  it('reads the position as [longitude, latitude]', async () => {
    const { client, sent } = placesClient([{ PlaceId: 'p', PlaceType: 'PointAddress', Title: '101 Arch St', Position: [-71.0575, 42.3553] }]);
    const position = await new AmazonLocationGeocoder({ countries: ['USA'], client }).geocode(ARCH_STREET);
    expect(position).toEqual({ latitude: 42.3553, longitude: -71.0575 });
    expect(sent[0]).toBeInstanceOf(GeocodeCommand);
    expect(sent[0]!.input.QueryText).toBe('101 Arch Street, Boston, MA 02114');
  });

  it('places nothing when there is no result, or only one too coarse to deliver to', async () => {
    expect(await new AmazonLocationGeocoder({ countries: ['USA'], client: placesClient([]).client }).geocode(ARCH_STREET)).toBeUndefined();
    const coarse = placesClient([{ PlaceId: 'p', PlaceType: 'Locality', Title: 'Boston', Position: [-71.06, 42.36] }]);
    expect(await new AmazonLocationGeocoder({ countries: ['USA'], client: coarse.client }).geocode(ARCH_STREET)).toBeUndefined();
  });
});
