/**
 * The benchmark's world, created through the domain library on the fresh table: one app, one
 * merchant with a location, a menu and a loyalty campaign, and a pool of users with tokens and a
 * card each. Each optional piece is created on its own, so a missing or changed area only makes
 * the scenarios that need it "not available" instead of stopping the bench.
 */
import { createApp } from '#shared/domain/identity/apps.ts';
import { MAX_CHARGE_LIMIT } from '#shared/domain/money/charge-limits.ts';
import { setChargeLimits } from '../../scripts/admin/money-settings.ts';
import { createMerchant } from '#shared/domain/merchants/merchants.ts';
import { createUser } from '#shared/domain/identity/users.ts';
import { issueToken } from '#shared/auth/tokens.ts';
import { MERCHANT_PERMISSIONS, USER_PERMISSIONS } from '#shared/routes.ts';

export interface BenchUser {
  userId: number;
  token: string;
  paymentTokenData: string;
  /** Logs in with BENCH_PASSWORD. */
  email: string;
}

export const BENCH_PASSWORD = 'bench-password';

export interface World {
  appId: number;
  apiKey: string;
  merchantId: number;
  merchantToken: string;
  users: BenchUser[];
  locationId?: number;
  campaignId?: number;
  menuItemId?: number;
  /** The order-ahead menu of `locationId` (menu_url's id). */
  menuId?: number;
  /** Users with a saved address inside the delivery area of a location that delivers (and has a menu). */
  deliveryAddresses?: { user: BenchUser; addressId: number }[];
  /** Uuids of completed orders nobody refunded yet (the refund scenario uses them up). */
  completedOrders: string[];
  /** What could not be created, by piece (shown in the report). */
  problems: Record<string, string>;
}

/** Enough users that 16 concurrent money writes rarely touch the same user's balances. */
export const USER_POOL_SIZE = 32;

async function inBatches<T>(count: number, concurrency: number, create: (index: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let nextIndex = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (nextIndex < count) {
        const index = nextIndex++;
        results[index] = await create(index);
      }
    }),
  );
  return results;
}

const ALL_DAY = [
  { days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as ('mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun')[], opens: '00:00', closes: '24:00' },
];

/** Where the bench's `index`th location stands and what it serves: as the seed makes it, and as the location-create scenario sends it. */
export function benchLocationPlace(index: number) {
  return {
    street_address: `${100 + index} Main Street`,
    locality: 'Boston',
    region: 'MA',
    postal_code: '02110',
    latitude: 42.36 + index / 10_000,
    longitude: -71.05,
    time_zone: 'America/New_York',
    fulfillment_types: ['in_store' as const, 'pickup' as const],
  };
}

export async function createLocationFor(merchantId: number, index = 0): Promise<number> {
  const { createLocation } = await import('#shared/domain/merchants/locations.ts');
  const location = await createLocation({ merchant_id: merchantId, name: `Bench ${index}`, ...benchLocationPlace(index), hours: ALL_DAY });
  return location.location_id;
}

async function attempt(problems: Record<string, string>, piece: string, create: () => Promise<void>): Promise<void> {
  try {
    await create();
  } catch (error) {
    problems[piece] = (error as Error).message.split('\n')[0]!.slice(0, 200);
  }
}

export async function seedWorld(runId: string): Promise<World> {
  const merchant = await createMerchant({ name: 'Bench Coffee', username: `bench-${runId}@example.com`, password: 'bench-password' });
  const { app, apiKey } = await createApp({ name: 'Bench App', global: false, merchantIds: [merchant.merchant_id] });
  const merchantToken = await issueToken({ subject: 'merchant', merchantId: merchant.merchant_id, appId: app.app_id, permissions: MERCHANT_PERMISSIONS });
  const users = await inBatches(USER_POOL_SIZE, 4, async (index) => {
    const user = await createUser(app.app_id, {
      email: `bench-${runId}-${index}@example.com`,
      first_name: 'Bench',
      last_name: `User${index}`,
      password: BENCH_PASSWORD,
    });
    const token = await issueToken({ subject: 'user', userId: user.user_id, appId: app.app_id, permissions: USER_PERMISSIONS, unlimited: true });
    return { userId: user.user_id, token, paymentTokenData: user.payment_token_data, email: user.email };
  });
  const world: World = { appId: app.app_id, apiKey, merchantId: merchant.merchant_id, merchantToken, users, completedOrders: [], problems: {} };
  // The bench measures speed, not the card charge limits: a full run charges each pooled user more than the
  // default month allows (docs/money.md, "Card charge limits"), so the bench app lifts them.
  await setChargeLimits({ appId: app.app_id }, { per_order_amount: MAX_CHARGE_LIMIT, monthly_amount: MAX_CHARGE_LIMIT });

  await attempt(world.problems, 'credit cards', async () => {
    const { addCreditCard } = await import('#shared/domain/cards/credit-cards.ts');
    const { SANDBOX_NONCES } = await import('#shared/payments/sandbox.ts');
    await inBatches(users.length, 4, (index) => addCreditCard(users[index]!.userId, `${SANDBOX_NONCES.valid}-bench-${runId}-${index}`));
  });
  await attempt(world.problems, 'location', async () => {
    // Ten locations: a full first page of the app's list (and the "10 records" case of paging).
    world.locationId = await createLocationFor(merchant.merchant_id);
    for (let index = 1; index < 10; index++) await createLocationFor(merchant.merchant_id, index);
  });
  await attempt(world.problems, 'loyalty campaign', async () => {
    const { createCampaign } = await import('#shared/domain/loyalty/campaigns.ts');
    const campaign = await createCampaign({
      merchant_id: merchant.merchant_id,
      kind: 'spend',
      title: 'Spend $100, get $5',
      required_spend_amount: 10_000,
      earn_amount: 500,
    });
    world.campaignId = campaign.campaign_id;
  });
  if (world.locationId !== undefined) {
    const locationId = world.locationId;
    await attempt(world.problems, 'order-ahead menu', async () => {
      const { createMenuForLocation } = await import('#shared/domain/order-ahead/menu.ts');
      const menu = await createMenuForLocation(locationId, { categories: [{ id: 1, name: 'Coffee', items: [{ id: 101, name: 'Latte', price_amount: 450 }] }] });
      world.menuItemId = 101;
      world.menuId = menu.menu_id;
    });
    await attempt(world.problems, 'delivery addresses', async () => {
      // A kitchen that delivers (with a menu) and an address inside its area for a few users.
      const { createLocation } = await import('#shared/domain/merchants/locations.ts');
      const { createMenuForLocation } = await import('#shared/domain/order-ahead/menu.ts');
      const { createAddress } = await import('#shared/domain/identity/addresses.ts');
      const kitchen = await createLocation({
        merchant_id: merchant.merchant_id,
        name: 'Bench kitchen',
        street_address: '1 Delivery Way',
        locality: 'Boston',
        region: 'MA',
        postal_code: '02110',
        latitude: 42.36,
        longitude: -71.06,
        time_zone: 'America/New_York',
        fulfillment_types: ['in_store', 'pickup', 'delivery'],
        delivery_radius_m: 3000,
        hours: ALL_DAY,
      });
      await createMenuForLocation(kitchen.location_id, { categories: [{ id: 1, name: 'Coffee', items: [{ id: 101, name: 'Latte', price_amount: 450 }] }] });
      world.deliveryAddresses = await inBatches(8, 4, async (index) => {
        const user = users[index]!;
        const address = await createAddress(user.userId, {
          address_type: 'delivery',
          street_address: `${index + 1} Hanover St`,
          locality: 'Boston',
          region: 'MA',
          postal_code: '02113',
          latitude: 42.3656,
          longitude: -71.0546,
        });
        return { user, addressId: address.address_id };
      });
    });
  }
  return world;
}
