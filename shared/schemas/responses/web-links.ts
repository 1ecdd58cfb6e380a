/** A location's web links as the apps read them. */
import * as z from '#shared/schemas/zod.ts';
import { namedItemList } from './registry.ts';

/** A27: a location's web links, as iOS (all four fields) and Android (the first three, title and web_url required) read them. */
export const webLinkList = namedItemList('WebLink', 'web_link', {
  title: z.string().check(z.describe('What the link is shown as (Facebook, Yelp, Menu, ...)')),
  web_link_type_id: z
    .number()
    .check(z.int(), z.describe('The icon: GET /v15/web_link_types/:id/image (1 Facebook, 2 Twitter, 3 OpenTable, 4 Menu, 5 Newsletter, 8 Yelp)')),
  web_url: z.string().check(z.describe('An absolute http(s) URL; a link the location has no URL for is not listed')),
  ios_deeplink_url: z.null().check(z.describe('Always null: iOS opens web_url')),
});
