/** What the user address operations answer (the requests: shared/schemas/addresses.ts). */
import * as z from '#shared/schemas/zod.ts';
import { ADDRESS_TYPES } from '#shared/schemas/addresses.ts';
import { integerId } from './common.ts';
import { named } from './registry.ts';

export const userAddress = named(
  'UserAddress',
  z.object({
    id: integerId,
    address_type: z.enum(ADDRESS_TYPES),
    extended_address: z.string(),
    latitude: z.nullable(z.number()),
    longitude: z.nullable(z.number()),
    locality: z.string().check(z.describe('City')),
    nickname: z.string(),
    postal_code: z.string(),
    region: z.string().check(z.describe('State')),
    street_address: z.string(),
  }),
);
export const userAddressResponse = named('UserAddressResponse', z.object({ user_address: userAddress }));
