/**
 * Merchant settings and location links of `npm run admin` (registered in scripts/admin.ts):
 * - set-tip-preference: a merchant's tip preference (`unwanted`, `expected`, `no preference`), on the merchant
 *   and every one of its locations (docs/pos.md "Merchant views").
 * - link-location-menus: once, for locations whose order-ahead menu was published before locations linked
 *   their menu (`pickup_menu_url`, `delivery_menu_url`; docs/locations.md). Idempotent.
 */
import { allLocationItems } from '#shared/domain/app-surface/location-summaries.ts';
import { setMerchantTipPreference, updateLocation } from '#shared/domain/merchants/locations.ts';
import { getMenu } from '#shared/domain/order-ahead/menu.ts';
import { TIP_PREFERENCES, type TipPreference } from '#shared/schemas/vocabularies.ts';
import { CommandError, UsageError, integerOption, optionsOf, stringOption, type AdminCommand } from './options.ts';

export const setTipPreferenceCommand: AdminCommand = {
  summary: "Set a merchant's tip preference, on the merchant and all its locations (re-run to finish one cut short).",
  usage: `--merchant-id <id> --tip-preference <${TIP_PREFERENCES.join(' | ')}>`,
  options: optionsOf(['merchant-id', 'tip-preference']),
  async run(values) {
    const merchantId = integerOption(values, 'merchant-id', true);
    const preference = stringOption(values, 'tip-preference', true);
    if (!(TIP_PREFERENCES as readonly string[]).includes(preference))
      throw new UsageError(`--tip-preference must be one of ${TIP_PREFERENCES.map((value) => `"${value}"`).join(', ')}`);
    const merchant = await setMerchantTipPreference(merchantId, preference as TipPreference);
    if (!merchant) throw new CommandError(`Merchant ${merchantId} does not exist`);
    return { merchant_id: merchantId, tip_preference: merchant.tip_preference };
  },
};

export const linkLocationMenusCommand: AdminCommand = {
  summary: 'Link every location to its published order-ahead menu (once, for menus published before locations linked them; idempotent).',
  async run() {
    const locations = await allLocationItems();
    let linked = 0;
    for (const location of locations) {
      const menu = await getMenu(location.location_id);
      const menuId = menu?.menu_id ?? null;
      if ((location.order_ahead_menu_id ?? null) === menuId && location.order_ahead_menu_id !== undefined) continue;
      await updateLocation(location.location_id, { order_ahead_menu_id: menuId });
      if (menuId !== null) linked += 1;
    }
    return { locations: locations.length, linked };
  },
};
