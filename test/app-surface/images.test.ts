/**
 * Images (A23-A25, O2) through HTTP: an operator uploads a picture (`npm run admin -- upload-image`), the
 * API answers 302 to a signed URL of the stored variant (s3rver here, S3 in AWS), and following it gives the
 * picture at the asked size (dimensions read back with sharp). 404 for sizes or densities a kind does not
 * document and for subjects without a picture; the Location's and the menu's image_url lead to the same.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectEmptyNotFounds } from '../support/answers.ts';
import { useTestApi } from '../support/api.ts';
import { clientPayload } from '../support/payloads.ts';
import { runAdmin } from '../support/admin.ts';
import { appFixture, merchantFixture } from '../support/fixtures.ts';
import { locationFixture } from '../support/locations.ts';
import { campaignFixture } from '../support/loyalty.ts';
import { orderAheadLocationFixture } from '../support/order-ahead.ts';
import { SAMPLE_IDS } from '#shared/domain/order-ahead/sample-menu.ts';
import { IMAGE_SIZES, getImage } from '#shared/domain/app-surface/images.ts';

const api = useTestApi();
let picture: string;

beforeAll(async () => {
  // A photo-like picture, larger than any variant, in a shape none of them has.
  const directory = mkdtempSync(join(tmpdir(), 'images-test-'));
  picture = join(directory, 'picture.png');
  const gradient = Buffer.alloc(1800 * 1200 * 3);
  for (let index = 0; index < 1800 * 1200; index++) {
    gradient[index * 3] = index % 256;
    gradient[index * 3 + 1] = (index / 1800) % 256;
    gradient[index * 3 + 2] = 128;
  }
  writeFileSync(
    picture,
    await sharp(gradient, { raw: { width: 1800, height: 1200, channels: 3 } })
      .png()
      .toBuffer(),
  );
});

async function upload(args: string[]) {
  const result = await runAdmin(['upload-image', ...args, '--file', picture], api);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
}

/** GET an image route, check the 302, follow Location outside the API and read the picture's size. */
async function follow(path: string) {
  const redirect = await api.call('GET', path);
  expect(redirect.status, `${path}: ${redirect.text}`).toBe(302);
  expect(redirect.text).toBe('');
  expect(redirect.headers.get('server')).toBe('LevelUp');
  const location = redirect.headers.get('location')!;
  expect(location).toMatch(/X-Amz-Signature=/);
  expect(location).toMatch(/X-Amz-Expires=900/);
  const image = await fetch(location);
  expect(image.status, location).toBe(200);
  const metadata = await sharp(Buffer.from(await image.arrayBuffer())).metadata();
  return { metadata, contentType: image.headers.get('content-type') };
}

describe('upload -> 302 -> the picture at the asked size', () => {
  it('serves a location image at every documented size and density, on the v14 and v15 paths, as the Location image_url says', async () => {
    const reference = clientPayload('docs_v15_images__redirects.json');
    const { app } = await appFixture();
    const merchant = await merchantFixture(app.app_id);
    const location = await locationFixture(merchant.merchant.merchant_id);
    const uploaded = await upload(['--kind', 'location', '--location-id', String(location.location_id)]);
    expect(uploaded.image.variants).toHaveLength(17);

    // What iOS and Android ask for (v14, 320x212), and the documented v15 sizes.
    const ios = await follow(`/v14/locations/${location.location_id}/image?density=2&height=212&width=320`);
    expect([ios.metadata.width, ios.metadata.height]).toEqual([640, 424]);
    expect(ios.contentType).toBe('image/jpeg');
    for (const [size, densities] of Object.entries(reference.endpoints[0].sizes_width_x_height as Record<string, number[]>)) {
      const [width, height] = size.split('x').map(Number);
      for (const density of densities) {
        const { metadata } = await follow(`/v15/locations/${location.location_id}/image?density=${density}&height=${height}&width=${width}`);
        expect([metadata.width, metadata.height], `${size}@${density}`).toEqual([Math.round(width! * density), Math.round(height! * density)]);
      }
    }
    // The Location's image_url is this endpoint.
    const listed = await api.call('GET', `/v15/apps/${app.app_id}/locations?image[width]=320&image[height]=212&image[density]=1.5`);
    const imageUrl = listed.body.find((row: { location: { id: number } }) => row.location.id === location.location_id).location.image_url;
    const viaList = await follow(new URL(imageUrl).pathname + new URL(imageUrl).search);
    expect([viaList.metadata.width, viaList.metadata.height]).toEqual([480, 318]);
  });

  it("serves a campaign's image and its reward icon (PNG) at their sizes", async () => {
    const { app } = await appFixture();
    const merchant = await merchantFixture(app.app_id);
    const campaign = await campaignFixture(merchant.merchant.merchant_id, 'spend');
    await upload(['--kind', 'campaign-image', '--campaign-id', String(campaign.campaign_id)]);
    await upload(['--kind', 'campaign-icon', '--campaign-id', String(campaign.campaign_id)]);
    const image = await follow(`/v14/campaigns/${campaign.campaign_id}/image?density=1.5&height=212&width=320`);
    expect([image.metadata.width, image.metadata.height]).toEqual([480, 318]);
    const icon = await follow(`/v15/campaigns/${campaign.campaign_id}/icon?density=3&height=48&width=48`);
    expect([icon.metadata.width, icon.metadata.height]).toEqual([144, 144]);
    expect(icon.contentType).toBe('image/png');
    for (const size of IMAGE_SIZES['campaign-icon']) {
      const { metadata } = await follow(`/v15/campaigns/${campaign.campaign_id}/icon?density=4&height=${size.height}&width=${size.width}`);
      expect(metadata.width).toBe(size.width * 4);
    }
    // The representation route keeps its own paths: icon is not a representation type.
    expect((await api.call('GET', `/v15/campaigns/${campaign.campaign_id}/basic_v1`)).status).toBe(401);
  });

  it("serves a menu item's picture at the item's image_url from the menu, as iOS asks (320x180 and 133x92)", async () => {
    const place = await orderAheadLocationFixture();
    await upload(['--kind', 'menu-item', '--menu-id', String(place.menu.menu_id), '--item-id', String(SAMPLE_IDS.tots)]);
    const menu = await api.call('GET', `/v15/order_ahead/menus/${place.menu.menu_id}`);
    const items = menu.body.menu.categories.flatMap((category: { category: { items: { item: { id: number; image_url: string | null } }[] } }) =>
      category.category.items.map((row) => row.item),
    );
    const imageUrl = new URL(items.find((item: { id: number }) => item.id === SAMPLE_IDS.tots).image_url);
    for (const [width, height] of [
      [320, 180],
      [133, 92],
    ] as const) {
      const { metadata } = await follow(`${imageUrl.pathname}?density=2&height=${height}&width=${width}`);
      expect([metadata.width, metadata.height]).toEqual([width * 2, height * 2]);
    }
  });

  it('replaces a picture: the new upload is served and the old objects are gone', async () => {
    const { app } = await appFixture();
    const merchant = await merchantFixture(app.app_id);
    const location = await locationFixture(merchant.merchant.merchant_id);
    await upload(['--kind', 'location', '--location-id', String(location.location_id)]);
    const before = (await api.call('GET', `/v14/locations/${location.location_id}/image?density=1&height=212&width=320`)).headers.get('location')!;
    await upload(['--kind', 'location', '--location-id', String(location.location_id)]);
    const after = (await api.call('GET', `/v14/locations/${location.location_id}/image?density=1&height=212&width=320`)).headers.get('location')!;
    expect(new URL(after).pathname).not.toBe(new URL(before).pathname);
    expect((await fetch(after)).status).toBe(200);
    expect((await fetch(before)).status).toBe(404);
    expect((await getImage({ kind: 'location', locationId: location.location_id }))?.objects['320x212@1x']).toBe(
      decodeURIComponent(new URL(after).pathname).split('/').slice(2).join('/'),
    );
  });
});

describe('404 and bad input', () => {
  it('answers 404 with an empty body for an unknown size or density, a subject without a picture, or an unknown subject', async () => {
    const { app } = await appFixture();
    const merchant = await merchantFixture(app.app_id);
    const location = await locationFixture(merchant.merchant.merchant_id);
    const bare = await locationFixture(merchant.merchant.merchant_id);
    await upload(['--kind', 'location', '--location-id', String(location.location_id)]);
    await expectEmptyNotFounds(api, [
      `/v14/locations/${location.location_id}/image?density=1&height=300&width=420`,
      `/v14/locations/${location.location_id}/image?density=3&height=212&width=320`,
      `/v14/locations/${location.location_id}/image?density=2&height=368&width=1440`,
      `/v14/locations/${bare.location_id}/image?density=1&height=212&width=320`,
      '/v14/locations/999999999/image?density=1&height=212&width=320',
      '/v14/campaigns/999999999/image?density=1&height=212&width=320',
      '/v15/campaigns/999999999/icon?density=1&height=26&width=26',
      '/v15/order_ahead/menus/999999999/items/1/image?density=1&height=180&width=320',
    ]);
    // Same size, density written differently: one variant.
    expect((await api.call('GET', `/v14/locations/${location.location_id}/image?density=2.000000&height=212&width=320`)).status).toBe(302);
  });

  it('answers 422 naming the parameter when density, width or height is missing or not a number', async () => {
    for (const [query, property] of [
      ['?height=212&width=320', 'density'],
      ['?density=1&width=320', 'height'],
      ['?density=x&height=212&width=320', 'density'],
      ['?density=1&height=212&width=-3', 'width'],
    ] as const) {
      const response = await api.call('GET', `/v14/locations/1/image${query}`);
      expect(response.status, query).toBe(422);
      expect(response.body[0].error.property).toBe(property);
    }
  });

  it('refuses an upload that is not a picture or names nothing that exists, storing nothing', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'images-test-'));
    const text = join(directory, 'not-a-picture.jpg');
    writeFileSync(text, 'hello');
    const { app } = await appFixture();
    const merchant = await merchantFixture(app.app_id);
    const location = await locationFixture(merchant.merchant.merchant_id);
    const notPicture = await runAdmin(['upload-image', '--kind', 'location', '--location-id', String(location.location_id), '--file', text], api);
    expect(notPicture.code).toBe(1);
    expect(notPicture.stderr).toMatch(/not a picture/);
    const missing = await runAdmin(['upload-image', '--kind', 'campaign-icon', '--campaign-id', '999999999', '--file', picture], api);
    expect(missing.code).toBe(1);
    expect(await getImage({ kind: 'location', locationId: location.location_id })).toBeUndefined();
  });
});
