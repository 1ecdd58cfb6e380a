import { queryAll } from '#shared/db/reads.ts';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, isConditionFailure, table } from '#shared/db/client.ts';
import { keys } from '#shared/db/keys.ts';
import { nextId } from '#shared/db/ids.ts';
import { putNew, transactWrite } from '#shared/db/transactions.ts';
import { notFound, unprocessable } from '#shared/errors.ts';
import { isoSeconds } from '#shared/time.ts';
import type { AddressChanges, AddressType, NewAddress } from '#shared/schemas/addresses.ts';

/** The list is answered in one response without paging; the bound keeps it small. */
export const MAX_ADDRESSES_PER_USER = 50;

export interface UserAddressItem {
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
  updated_at: string;
}

export async function createAddress(userId: number, input: NewAddress): Promise<UserAddressItem> {
  const addressId = await nextId('user_address');
  const now = isoSeconds();
  const address: UserAddressItem = {
    address_id: addressId,
    user_id: userId,
    address_type: input.address_type,
    street_address: input.street_address,
    extended_address: input.extended_address ?? '',
    locality: input.locality,
    region: input.region,
    postal_code: input.postal_code,
    nickname: input.nickname ?? '',
    latitude: input.latitude ?? null,
    longitude: input.longitude ?? null,
    created_at: now,
    updated_at: now,
  };
  const outcome = await transactWrite(() => [
    {
      Update: {
        TableName: table(),
        Key: keys.userAddressCount(userId),
        UpdateExpression: 'ADD address_count :one SET entity = :entity, updated_at = :now',
        ConditionExpression: 'attribute_not_exists(address_count) OR address_count < :max',
        ExpressionAttributeValues: { ':one': 1, ':max': MAX_ADDRESSES_PER_USER, ':entity': 'UserAddressCount', ':now': now },
      },
    },
    putNew({ ...keys.userAddress(userId, addressId), entity: 'UserAddress', ...address }),
  ]);
  if (!outcome.committed) {
    if (outcome.reasons[0] === 'ConditionalCheckFailed') {
      throw unprocessable('user_address', 'base', `You can save at most ${MAX_ADDRESSES_PER_USER} addresses`, 'too_many');
    }
    throw new Error(`address creation cancelled: ${outcome.reasons.join(',')}`);
  }
  return address;
}

/** The user's addresses by id (the sort key pads ids so this is numeric order). */
export async function listAddresses(userId: number): Promise<UserAddressItem[]> {
  const prefix = keys.userAddressPrefix(userId);
  return (await queryAll({
    TableName: table(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': prefix.pk, ':prefix': prefix.skPrefix },
  })) as UserAddressItem[];
}

/** Changes the given fields of one of the user's addresses; another user's id is simply not found. */
export async function updateAddress(userId: number, addressId: number, changes: AddressChanges): Promise<UserAddressItem> {
  const names: Record<string, string> = { '#updated_at': 'updated_at' };
  const values: Record<string, unknown> = { ':updated_at': isoSeconds() };
  const assignments = ['#updated_at = :updated_at'];
  for (const [field, value] of Object.entries(changes)) {
    if (value === undefined) continue;
    names[`#${field}`] = field;
    values[`:${field}`] = value;
    assignments.push(`#${field} = :${field}`);
  }
  try {
    const result = await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: keys.userAddress(userId, addressId),
        UpdateExpression: `SET ${assignments.join(', ')}`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return result.Attributes as UserAddressItem;
  } catch (error) {
    if (isConditionFailure(error)) throw notFound();
    throw error;
  }
}

/** Deletes one of the user's addresses and returns it as it was. */
export async function deleteAddress(userId: number, addressId: number): Promise<UserAddressItem> {
  const found = await db().send(new GetCommand({ TableName: table(), Key: keys.userAddress(userId, addressId), ConsistentRead: true }));
  if (!found.Item) throw notFound();
  const outcome = await transactWrite(() => [
    { Delete: { TableName: table(), Key: keys.userAddress(userId, addressId), ConditionExpression: 'attribute_exists(pk)' } },
    {
      Update: {
        TableName: table(),
        Key: keys.userAddressCount(userId),
        UpdateExpression: 'ADD address_count :minusOne SET updated_at = :now',
        ExpressionAttributeValues: { ':minusOne': -1, ':now': isoSeconds() },
      },
    },
  ]);
  // A concurrent delete of the same address won.
  if (!outcome.committed) throw notFound();
  return found.Item as UserAddressItem;
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
