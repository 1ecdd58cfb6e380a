/**
 * A27 of the SDK reference through HTTP: a location's web links, in the shape of the iOS stub the SDKs parse
 * (title, web_link_type_id, web_url, ios_deeplink_url), built from the URLs the location has.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db, table } from '#shared/db/client.ts';
import { keys } from '#shared/db/keys.ts';
import { useTestApi } from '../support/api.ts';
import { clientPayload, expectShapeOf } from '../support/payloads.ts';
import { appFixture, merchantFixture } from '../support/fixtures.ts';
import { locationFixture } from '../support/locations.ts';

const api = useTestApi();

async function merchantId() {
  const { app } = await appFixture();
  return (await merchantFixture(app.app_id)).merchant.merchant_id;
}

interface WebLinkRow {
  web_link: { title: string; web_link_type_id: number; web_url: string; ios_deeplink_url: string | null };
}

describe('A27 GET /v15/locations/:id/web_links', () => {
  it("lists the location's links as the iOS fixture has them: Facebook and Yelp with the fixture's type ids, each an absolute URL", async () => {
    const reference = clientPayload('ios_v15_locations_id_web_links__list.json');
    const location = await locationFixture(await merchantId(), {
      facebook_url: 'https://www.facebook.com/downtown-coffee',
      yelp_url: 'https://www.yelp.com/biz/downtown-coffee',
      menu_url: 'https://downtown.example.com/menu',
      twitter_url: 'https://twitter.com/downtown',
      opentable_url: null,
    });
    const response = await api.call('GET', `/v15/locations/${location.location_id}/web_links`);
    expect(response.status).toBe(200);
    expectShapeOf(response.body, reference.response_body, { nullable: ['$[].web_link.ios_deeplink_url'] });
    const rows = response.body as WebLinkRow[];
    const byTitle = new Map(rows.map((row) => [row.web_link.title, row.web_link]));
    expect([...byTitle.keys()]).toEqual(['Facebook', 'Twitter', 'Yelp', 'Menu']);
    // The fixture's ids for the types it shows: an app's icon for Facebook and Yelp is the one it expects.
    const fixtureIds = new Map((reference.response_body as WebLinkRow[]).map((row) => [row.web_link.title, row.web_link.web_link_type_id]));
    expect(byTitle.get('Facebook')!.web_link_type_id).toBe(fixtureIds.get('Facebook'));
    expect(byTitle.get('Yelp')!.web_link_type_id).toBe(fixtureIds.get('Yelp'));
    expect(byTitle.get('Facebook')!.web_url).toBe('https://www.facebook.com/downtown-coffee');
    expect(byTitle.get('Menu')!.web_url).toBe('https://downtown.example.com/menu');
    for (const row of rows) {
      expect(new URL(row.web_link.web_url).protocol).toMatch(/^https?:$/);
      expect(row.web_link.ios_deeplink_url).toBeNull();
    }
    expect(new Set(rows.map((row) => row.web_link.web_link_type_id)).size).toBe(rows.length);
  });

  it('leaves out links the location has no usable URL for (never "" or null), so a location with none answers []', async () => {
    const merchant = await merchantId();
    const none = await locationFixture(merchant);
    const empty = await api.call('GET', `/v15/locations/${none.location_id}/web_links`);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual([]);
    // A location stored before links were checked may hold a javascript:, mailto: or empty URL: none is a web link.
    const odd = await locationFixture(merchant, { yelp_url: 'http://www.yelp.com/biz/odd' });
    await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: keys.location(odd.location_id),
        UpdateExpression: 'SET facebook_url = :script, newsletter_url = :mail, twitter_url = :empty, menu_url = :relative',
        ExpressionAttributeValues: { ':script': 'javascript:alert(1)', ':mail': 'mailto:news@example.com', ':empty': '', ':relative': '/menu' },
      }),
    );
    const filtered = await api.call('GET', `/v15/locations/${odd.location_id}/web_links`);
    expect(filtered.status).toBe(200);
    expect(filtered.body).toEqual([{ web_link: { title: 'Yelp', web_link_type_id: 8, web_url: 'http://www.yelp.com/biz/odd', ios_deeplink_url: null } }]);
  });

  it('answers 404 with an empty body for an unknown, hidden or malformed location', async () => {
    const hidden = await locationFixture(await merchantId(), { shown: false, facebook_url: 'https://www.facebook.com/hidden' });
    for (const path of [`/v15/locations/${hidden.location_id}/web_links`, '/v15/locations/999999999/web_links', '/v15/locations/abc/web_links']) {
      const response = await api.call('GET', path);
      expect(response.status, path).toBe(404);
      expect(response.text).toBe('');
      expect(response.headers.get('server')).toBe('LevelUp');
    }
  });
});
