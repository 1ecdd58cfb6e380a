import * as z from 'zod';
import { ADDRESS_TYPES } from '#shared/domain/addresses.ts';
import { integerId } from './common.ts';
import { named } from './registry.ts';

export const userAddress = named(
  'UserAddress',
  z.object({
    id: integerId,
    address_type: z.enum(ADDRESS_TYPES),
    extended_address: z.string(),
    latitude: z.number().nullable(),
    longitude: z.number().nullable(),
    locality: z.string().describe('City'),
    nickname: z.string(),
    postal_code: z.string(),
    region: z.string().describe('State'),
    street_address: z.string(),
  }),
);
export const userAddressResponse = named('UserAddressResponse', z.object({ user_address: userAddress }));
