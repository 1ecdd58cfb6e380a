import { loadedOnFirstUse } from '#shared/env.ts';
import type { Geocoder } from '#shared/geocoding/geocoder.ts';

export type { Geocoder, PostalAddress, Position } from '#shared/geocoding/geocoder.ts';

/**
 * The configured geocoder, one per process, chosen by `GEOCODER`:
 * - `amazon-location`: Amazon Location Service (what the CDK stack configures);
 * - `none`: nothing is geocoded (addresses keep the coordinates clients send, or none);
 * - `sandbox`, or unset: the offline US postal-code sandbox (`npm start`, the tests).
 *
 * Each adapter is imported only when chosen. Deployed bundles are built with `process.env.GEOCODER`
 * defined as `amazon-location` (API_FUNCTION_BUNDLING), so esbuild drops the other branches and the
 * sandbox's postal-code data never reaches a Lambda bundle (docs/geocoding.md, "Bundles"). Chosen once per
 * process (`loadedOnFirstUse`): a failed load is tried again by the next address, not kept.
 */
export const geocoder: () => Promise<Geocoder | undefined> = loadedOnFirstUse(load);

async function load(): Promise<Geocoder | undefined> {
  if (process.env.GEOCODER === 'amazon-location') {
    const { AmazonLocationGeocoder } = await import('#shared/geocoding/amazon-location.ts');
    const countries = (process.env.GEOCODER_COUNTRIES ?? 'USA')
      .split(',')
      .map((country) => country.trim())
      .filter((country) => country !== '');
    return new AmazonLocationGeocoder({ countries });
  } else if (process.env.GEOCODER === 'none') {
    return undefined;
  } else {
    const { SandboxGeocoder } = await import('#shared/geocoding/sandbox.ts');
    return new SandboxGeocoder();
  }
}
