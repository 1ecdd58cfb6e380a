import { queryAll } from '#shared/db/reads.ts';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, isConditionFailure, table } from '#shared/db/client.ts';
import { and, attributeMissing, below, equals, itemExists, or, type Condition } from '#shared/db/conditions.ts';
import { defineEntity, type EntityItem } from '#shared/db/entity.ts';
import { keys } from '#shared/db/keys.ts';
import { byCreation, nextId } from '#shared/db/ids.ts';
import { transactWrite } from '#shared/db/transactions.ts';
import { conflict, notFound, unprocessable } from '#shared/errors.ts';
import { geocoder, type PostalAddress, type Position } from '#shared/geocoding/index.ts';
import { log } from '#shared/log.ts';
import { isoSeconds } from '#shared/time.ts';
import type { AddressChanges, AddressType, NewAddress } from '#shared/schemas/addresses.ts';

/** The list is answered in one response without paging; the bound keeps it small. */
export const MAX_ADDRESSES_PER_USER = 50;

interface UserAddressAttributes {
  address_id: number;
  user_id: number;
  address_type: AddressType;
  street_address: string;
  extended_address: string;
  locality: string;
  region: string;
  postal_code: string;
  nickname: string;
  latitude: number | null;
  longitude: number | null;
  created_at: string;
  /** Creation instant in milliseconds: the list's order (address ids do not follow creation; absent on older items). */
  created_at_ms?: number;
  updated_at: string;
}

export const UserAddress = defineEntity<UserAddressAttributes>()({ entity: 'UserAddress', key: keys.userAddress });
export type UserAddressItem = EntityItem<typeof UserAddress>;

/** How many addresses a user has, kept beside them so the per-user limit holds under concurrent creates. */
const UserAddressCount = defineEntity<{ address_count: number; updated_at: string }>()({ entity: 'UserAddressCount', key: keys.userAddressCount });

/** The fields a geocoder places an address by; changing one of them moves the address. */
const PLACING_FIELDS = ['street_address', 'locality', 'region', 'postal_code'] as const;

/** Attempts of an update that re-geocodes before it gives up on an address changed under it (409). */
const MAX_GEOCODED_UPDATE_ATTEMPTS = 3;

/**
 * The position of an address a client sent without one, or null when it cannot be geocoded. A
 * geocoder failure (the service down or slow) is logged and leaves the address without a position,
 * as an address that cannot be placed: saving the address matters more than its coordinates.
 */
async function geocodedPosition(address: PostalAddress): Promise<Position | null> {
  try {
    return (await (await geocoder())?.geocode(address)) ?? null;
  } catch (error) {
    log('warn', 'geocoding failed; the address is saved without coordinates', { error: (error as Error)?.message });
    return null;
  }
}

/** Coordinates a client sent are kept as sent; without them (absent or null) the address is geocoded. */
function sentPosition(input: { latitude?: number | null; longitude?: number | null }): Position | undefined {
  return typeof input.latitude === 'number' && typeof input.longitude === 'number' ? { latitude: input.latitude, longitude: input.longitude } : undefined;
}

export async function createAddress(userId: number, input: NewAddress): Promise<UserAddressItem> {
  const [addressId, position] = await Promise.all([
    nextId('user_address'),
    sentPosition(input) ?? geocodedPosition({ ...input, extended_address: input.extended_address ?? '' }),
  ]);
  const createdAt = new Date();
  const now = isoSeconds(createdAt);
  const address = UserAddress.at(userId, addressId).item({
    address_id: addressId,
    user_id: userId,
    address_type: input.address_type,
    street_address: input.street_address,
    extended_address: input.extended_address ?? '',
    locality: input.locality,
    region: input.region,
    postal_code: input.postal_code,
    nickname: input.nickname ?? '',
    latitude: position?.latitude ?? null,
    longitude: position?.longitude ?? null,
    created_at: now,
    created_at_ms: createdAt.getTime(),
    updated_at: now,
  });
  const outcome = await transactWrite(() => [
    UserAddressCount.at(userId).update(
      { add: { address_count: 1 }, set: { updated_at: now }, creates: true },
      or(attributeMissing('address_count'), below('address_count', MAX_ADDRESSES_PER_USER)),
    ),
    UserAddress.at(userId, addressId).putNew(address),
  ]);
  if (!outcome.committed) {
    if (outcome.reasons[0] === 'ConditionalCheckFailed') {
      throw unprocessable('user_address', 'base', `You can save at most ${MAX_ADDRESSES_PER_USER} addresses`, 'too_many');
    }
    throw new Error(`address creation cancelled: ${outcome.reasons.join(',')}`);
  }
  return address;
}

/**
 * The user's addresses, oldest first. Address ids are drawn from sharded counters and do not follow
 * creation order, so the (at most MAX_ADDRESSES_PER_USER) items are sorted by creation time here.
 */
export async function listAddresses(userId: number): Promise<UserAddressItem[]> {
  const prefix = keys.userAddressPrefix(userId);
  const addresses = (
    await queryAll({
      TableName: table(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': prefix.pk, ':prefix': prefix.skPrefix },
    })
  ).flatMap((item) => UserAddress.from(item) ?? []);
  return addresses.sort(byCreation((address) => address.address_id));
}

/**
 * Changes the given fields of one of the user's addresses; another user's id is simply not found.
 * Coordinates sent are kept as sent. A change that moves the address (street, city, region or postal
 * code) without coordinates, or coordinates sent as null, re-geocodes it: the address is read, the
 * merged address geocoded, and the write is conditioned on the placing fields it read, so a
 * concurrent change cannot leave coordinates that belong to another version of the address (it is
 * read and geocoded again; after 3 lost races, 409 with Retry-After).
 */
export async function updateAddress(userId: number, addressId: number, changes: AddressChanges): Promise<UserAddressItem> {
  const sent = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
  const regeocode = sentPosition(changes) === undefined && (changes.latitude === null || PLACING_FIELDS.some((field) => field in sent));
  if (!regeocode) {
    const updated = await writeAddressChanges(userId, addressId, sent);
    if (!updated) throw notFound();
    return updated;
  }
  for (let attempt = 1; attempt <= MAX_GEOCODED_UPDATE_ATTEMPTS; attempt++) {
    const current = await UserAddress.at(userId, addressId).get({ consistent: true });
    if (!current) throw notFound();
    const position = await geocodedPosition({ ...current, ...sent });
    const seen = and(...PLACING_FIELDS.map((field) => equals(field, current[field])));
    const updated = await writeAddressChanges(
      userId,
      addressId,
      { ...sent, latitude: position?.latitude ?? null, longitude: position?.longitude ?? null },
      seen,
    );
    if (updated) return updated;
    // Gone meanwhile (the next read answers 404), or moved by a concurrent change: read and geocode again.
  }
  throw conflict('This address is being changed by another request; retry this one.', 1, 'user_address');
}

/**
 * One UpdateItem of the fields given, if the address exists and (with `seen`) those fields still
 * hold the values read; undefined when that condition fails.
 */
async function writeAddressChanges(
  userId: number,
  addressId: number,
  fields: Partial<UserAddressAttributes>,
  seen?: Condition<(typeof PLACING_FIELDS)[number]>,
): Promise<UserAddressItem | undefined> {
  const update = UserAddress.at(userId, addressId).update({ set: { ...fields, updated_at: isoSeconds() } }, seen ? and(itemExists, seen) : itemExists);
  try {
    const result = await db().send(new UpdateCommand({ ...update.Update, ReturnValues: 'ALL_NEW' }));
    return UserAddress.from(result.Attributes);
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

/** Deletes one of the user's addresses and returns it as it was. */
export async function deleteAddress(userId: number, addressId: number): Promise<UserAddressItem> {
  const stored = UserAddress.at(userId, addressId);
  const found = await stored.get({ consistent: true });
  if (!found) throw notFound();
  const outcome = await transactWrite(() => [
    stored.delete(itemExists),
    UserAddressCount.at(userId).update({ add: { address_count: -1 }, set: { updated_at: isoSeconds() } }),
  ]);
  // A concurrent delete of the same address won.
  if (!outcome.committed) throw notFound();
  return found;
}

export function serializeAddress(address: UserAddressItem) {
  return {
    user_address: {
      id: address.address_id,
      address_type: address.address_type,
      extended_address: address.extended_address,
      latitude: address.latitude,
      longitude: address.longitude,
      locality: address.locality,
      nickname: address.nickname,
      postal_code: address.postal_code,
      region: address.region,
      street_address: address.street_address,
    },
  };
}
