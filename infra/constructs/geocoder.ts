import { ArnFormat, Stack } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';

export interface AddressGeocoderProps {
  /** The functions that geocode addresses (routes with `geocodes: true`). */
  functions: readonly LambdaFunction[];
  /**
   * ISO 3166 alpha-3 codes geocoding results are limited to.
   * @default ['USA']
   */
  countries?: readonly string[];
}

/** The only Amazon Location Service action the geocoding functions need. */
export const GEOCODE_ACTION = 'geo-places:Geocode';

/**
 * Geocoding with Amazon Location Service's Places API (shared/geocoding/amazon-location.ts). The Places
 * API needs no resource of its own (no place index): it is called with IAM credentials, on the AWS
 * provider resource `arn:<partition>:geo-places:<region>::provider/default`. Each geocoding function
 * gets exactly `geo-places:Geocode` on that one resource (least privilege: no other Places action, no
 * other Region, no API key to keep secret) and the configuration that selects the adapter.
 */
export class AddressGeocoder extends Construct {
  /** The Places provider resource the grant is scoped to. */
  public readonly placesProviderArn: string;

  public constructor(scope: Construct, id: string, { functions, countries = ['USA'] }: AddressGeocoderProps) {
    super(scope, id);
    this.placesProviderArn = Stack.of(this).formatArn({
      service: 'geo-places',
      account: '',
      resource: 'provider',
      resourceName: 'default',
      arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
    });
    for (const fn of functions) {
      fn.addToRolePolicy(new PolicyStatement({ actions: [GEOCODE_ACTION], resources: [this.placesProviderArn] }));
      fn.addEnvironment('GEOCODER', 'amazon-location');
      fn.addEnvironment('GEOCODER_COUNTRIES', countries.join(','));
    }
  }
}
