import { Location, type LocationItem } from '#shared/domain/merchants/locations.ts';

/**
 * A location's web links (A27, `GET /v15/locations/:id/web_links`): the links the iOS and Android location
 * screens show under the address, built from the URLs the location has. Both SDKs require `title` and
 * `web_url` (Android's WebLink marks them required), so a link is listed only when its URL is an absolute
 * http(s) URL: a missing, empty, relative or other-scheme URL (a location stored before its links were
 * checked may hold one) is left out, never answered as `""` or null.
 *
 * `web_link_type_id` picks the icon the apps fetch from `GET /v15/web_link_types/:id/image`. LevelUp's ids
 * are known only for the types its iOS fixture shows (1 Facebook, 7 Website, 8 Yelp); the others are ours,
 * fixed here, never reused. `ios_deeplink_url` is always null: iOS then opens `web_url` (a bare app scheme
 * such as `facebook:///` would open the Facebook app, not the location's page).
 */
export const WEB_LINK_TYPES = [
  { id: 1, title: 'Facebook', field: 'facebook_url' },
  { id: 2, title: 'Twitter', field: 'twitter_url' },
  { id: 8, title: 'Yelp', field: 'yelp_url' },
  { id: 3, title: 'OpenTable', field: 'opentable_url' },
  { id: 4, title: 'Menu', field: 'menu_url' },
  { id: 5, title: 'Newsletter', field: 'newsletter_url' },
] as const satisfies readonly { id: number; title: string; field: keyof LocationItem }[];

type WebLinkField = (typeof WEB_LINK_TYPES)[number]['field'];

export interface WebLink {
  web_link: { title: string; web_link_type_id: number; web_url: string; ios_deeplink_url: null };
}

/** The URL as given when it is an absolute http or https URL, else undefined. */
export function absoluteWebUrl(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? value : undefined;
  } catch {
    return undefined;
  }
}

export function webLinksOf(location: Pick<LocationItem, WebLinkField>): WebLink[] {
  return WEB_LINK_TYPES.flatMap((type) => {
    const url = absoluteWebUrl(location[type.field]);
    return url === undefined ? [] : [{ web_link: { title: type.title, web_link_type_id: type.id, web_url: url, ios_deeplink_url: null } }];
  });
}

/** A shown location's web links (one read of just those attributes); undefined when no such location is listed. */
export async function locationWebLinks(locationId: number): Promise<WebLink[] | undefined> {
  const item = await Location.at(locationId).get({ consistent: false, attributes: ['shown', ...WEB_LINK_TYPES.map((type) => type.field)] });
  if (!item || item.shown === false) return undefined;
  return webLinksOf(item);
}
