import * as z from 'zod';
import { named, schema } from './registry.ts';

/** A27: a location's web links, as iOS (all four fields) and Android (the first three, title and web_url required) read them. */
export const webLinkList = /* @__PURE__ */ schema(() => z.array(
  z.object({
    web_link: named(
      'WebLink',
      z.object({
        title: z.string().describe('What the link is shown as (Facebook, Yelp, Menu, ...)'),
        web_link_type_id: z.number().int().describe('The icon: GET /v15/web_link_types/:id/image (1 Facebook, 2 Twitter, 3 OpenTable, 4 Menu, 5 Newsletter, 8 Yelp)'),
        web_url: z.string().describe('An absolute http(s) URL; a link the location has no URL for is not listed'),
        ios_deeplink_url: z.null().describe('Always null: iOS opens web_url'),
      }),
    ),
  }),
));
