import * as z from '#shared/schemas/zod.ts';
import { roundedDecimal } from './common.ts';
import { pathId } from './params.ts';

export const ADDRESS_TYPES = ['billing', 'delivery', 'home', 'other', 'payment', 'shipping', 'work'] as const;
export type AddressType = (typeof ADDRESS_TYPES)[number];

/** User addresses exist mostly to deliver order ahead orders to, so an address without a type is a delivery address. */
export const DEFAULT_ADDRESS_TYPE: AddressType = 'delivery';
export const MAX_ADDRESS_FIELD_LENGTH = 255;
export const MAX_NICKNAME_LENGTH = 100;

const tooLong = (max: number) => ({ error: `is too long (maximum is ${max} characters)` });
const requiredText = z
  .string()
  .check(z.trim(), z.minLength(1, { error: "can't be blank" }), z.maxLength(MAX_ADDRESS_FIELD_LENGTH, tooLong(MAX_ADDRESS_FIELD_LENGTH)));
/** Optional text: absent or null is stored as '' so the field is always a string, as the contract types it. */
const optionalText = (max: number) =>
  z.pipe(
    z.nullable(z.string().check(z.trim(), z.maxLength(max, tooLong(max)))),
    z.transform((value) => value ?? ''),
  );
/** Degrees to 7 decimal places (about 1 cm), the most a street address needs (and what DynamoDB can always store). */
const coordinate = (limit: number) =>
  z.nullable(
    z.pipe(
      z
        .number({ error: 'must be a number' })
        .check(z.gte(-limit, { error: `must be between -${limit} and ${limit}` }), z.lte(limit, { error: `must be between -${limit} and ${limit}` })),
      roundedDecimal(7),
    ),
  );

const addressFields = {
  // "Address type is invalid." is the LevelUp docs' message for this error.
  address_type: z.enum(ADDRESS_TYPES, { error: 'is invalid.' }),
  street_address: requiredText,
  extended_address: optionalText(MAX_ADDRESS_FIELD_LENGTH),
  locality: requiredText,
  region: requiredText,
  postal_code: requiredText,
  nickname: optionalText(MAX_NICKNAME_LENGTH),
  latitude: coordinate(90),
  longitude: coordinate(180),
};

/** A position is meaningful only as a pair: latitude and longitude are sent together or not at all. */
function coordinatesPaired(address: { latitude?: number | null; longitude?: number | null }): boolean {
  return (address.latitude === undefined) === (address.longitude === undefined) && (address.latitude === null) === (address.longitude === null);
}
const pairedCoordinates = { error: 'and longitude must be sent together', path: ['latitude'] };

export const createAddressBody = z.object({
  user_address: z
    .object({
      ...addressFields,
      address_type: z._default(addressFields.address_type, DEFAULT_ADDRESS_TYPE),
      extended_address: z.optional(addressFields.extended_address),
      nickname: z.optional(addressFields.nickname),
      latitude: z.optional(addressFields.latitude),
      longitude: z.optional(addressFields.longitude),
    })
    .check(z.refine(coordinatesPaired, pairedCoordinates)),
});

export const updateAddressBody = z.object({
  user_address: z.partial(z.object(addressFields)).check(z.refine(coordinatesPaired, pairedCoordinates)),
});

export const addressIdParams = z.object({ id: pathId });

export type NewAddress = z.output<typeof createAddressBody>['user_address'];
export type AddressChanges = z.output<typeof updateAddressBody>['user_address'];
