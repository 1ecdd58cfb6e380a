/**
 * A location's picture by presigned upload (issue 38; docs/merchant-api.md, "Locations: images") through HTTP, end
 * to end with no fake: the create route answers a presigned POST, the file goes to s3rver as a browser's form, s3rver's
 * ObjectCreated event runs the processing function (scripts/local/s3.ts, as the bucket's notification does in AWS),
 * the upload turns ready and the app route redirects to the new version. Failures (not a picture, another format, a
 * decompression bomb, too large) are the upload's reason and change nothing; a repeated event changes nothing; roles.
 */
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import type { S3Event } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { S3Local } from '../../scripts/local/s3.ts';
import { s3Handler } from '../../functions/location-image-uploads-process.ts';
import { getImage } from '#shared/domain/app-surface/images.ts';
import { MAX_UPLOAD_BYTES } from '#shared/domain/merchants/location-image-uploads.ts';
import { useTestApi } from '../support/api.ts';
import { sampleJpeg, startUploadsS3 } from '../support/image-uploads.ts';
import { locationFixture } from '../support/locations.ts';
import { moneyWorld } from '../support/money.ts';
import { roleTokens } from '../support/staff.ts';

const api = useTestApi();

let s3: S3Local;
let merchantId: number;
let locationId: number;
let otherLocationId: number;
let tokens: Awaited<ReturnType<typeof roleTokens>>;
let jpeg: Buffer;

beforeAll(async () => {
  s3 = await startUploadsS3('location-images');
  const world = await moneyWorld();
  merchantId = world.merchant.merchant.merchant_id;
  tokens = await roleTokens(world.app.app_id, merchantId);
  locationId = (await locationFixture(merchantId)).location_id;
  otherLocationId = (await locationFixture(merchantId)).location_id;
  jpeg = await sampleJpeg('#3a7bd5');
});

afterAll(async () => {
  await s3?.stop();
});

const uploadsPath = (merchant: number, location: number) => `/v15/merchants/${merchant}/locations/${location}/image_uploads`;

async function createUpload(token: string, contentType = 'image/jpeg', location = locationId, headers?: Record<string, string>) {
  return api.call('POST', uploadsPath(merchantId, location), { token, body: { image_upload: { content_type: contentType } }, headers });
}

/** What a browser does with the answer: a multipart form of the fields, then the file. */
async function postForm(upload: { url: string; fields: Record<string, string> }, bytes: Uint8Array, contentType: string) {
  const form = new FormData();
  for (const [name, value] of Object.entries(upload.fields)) form.append(name, value);
  form.append('file', new Blob([bytes], { type: contentType }), 'picture');
  return fetch(upload.url, { method: 'POST', body: form });
}

async function settled(uploadId: string, token = tokens.owner, location = locationId) {
  let shown: any;
  await expect
    .poll(
      async () => {
        shown = await api.call('GET', `${uploadsPath(merchantId, location)}/${uploadId}`, { token });
        return shown.body?.image_upload?.state;
      },
      { timeout: 20_000, interval: 100 },
    )
    .not.toBe('pending');
  expect(shown.status, shown.text).toBe(200);
  return shown.body.image_upload;
}

/** Uploads `bytes` through the whole flow and answers the upload once it is no longer pending. */
async function uploadThrough(bytes: Uint8Array, contentType = 'image/jpeg', token = tokens.owner) {
  const created = await createUpload(token, contentType);
  expect(created.status, created.text).toBe(201);
  const sent = await postForm(created.body.image_upload.upload, bytes, contentType);
  expect(sent.status, await sent.text()).toBeLessThan(300);
  return settled(created.body.image_upload.id, token);
}

async function objectExists(key: string): Promise<boolean> {
  const { LOCAL_IMAGES_BUCKET } = await import('../../scripts/local/s3.ts');
  return (await fetch(`${s3.endpoint}/${LOCAL_IMAGES_BUCKET}/${key}`, { method: 'HEAD' })).status === 200;
}

/** A PNG claiming `width` x `height` pixels with one row of data (a few bytes: a decompression bomb before decoding). */
function pngClaiming(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(0, 9); // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.alloc(width + 1))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('presigned upload -> S3 event -> ready -> the app route', () => {
  it('answers a pending upload with a presigned POST whose policy bounds the key, the size, the type and the time', async () => {
    const created = await createUpload(tokens.manager);
    expect(created.status, created.text).toBe(201);
    const upload = created.body.image_upload;
    expect(upload).toMatchObject({ merchant_id: merchantId, location_id: locationId, state: 'pending', content_type: 'image/jpeg', failure: null });
    expect(upload.id).toMatch(/^[0-9a-f]{32}$/);
    expect(upload.upload.max_bytes).toBe(20 * 1024 * 1024);
    const key = `uploads/merchants/${merchantId}/locations/${locationId}/${upload.id}`;
    expect(upload.upload.fields).toMatchObject({ key, 'Content-Type': 'image/jpeg' });
    const policy = JSON.parse(Buffer.from(upload.upload.fields.Policy, 'base64').toString('utf8'));
    expect(policy.conditions).toEqual(expect.arrayContaining([['content-length-range', 1, 20 * 1024 * 1024], ['eq', '$Content-Type', 'image/jpeg'], { key }]));
    const expiresIn = Date.parse(policy.expiration) - Date.now();
    expect(expiresIn).toBeGreaterThan(9 * 60 * 1000);
    expect(expiresIn).toBeLessThanOrEqual(10 * 60 * 1000);
    expect(Date.parse(upload.upload.expires_at)).toBeGreaterThan(Date.now());
  });

  it('resizes a real JPEG to every size, records the new version, redirects the app route to it and deletes the old one', async () => {
    const first = await uploadThrough(jpeg);
    expect(first).toMatchObject({ state: 'ready', failure: null });
    const firstImage = (await getImage({ kind: 'location', locationId }))!;
    expect(firstImage.version).toBe(first.image_version);
    expect(Object.keys(firstImage.objects)).toHaveLength(17);

    const redirect = await api.call('GET', `/v15/locations/${locationId}/image?density=2&height=212&width=320`);
    expect(redirect.status, redirect.text).toBe(302);
    const location = redirect.headers.get('location')!;
    expect(location).toContain(`/${first.image_version}/320x212%402x.jpg`);
    const picture = await fetch(location);
    expect(picture.status).toBe(200);
    const metadata = await sharp(Buffer.from(await picture.arrayBuffer())).metadata();
    expect([metadata.format, metadata.width, metadata.height]).toEqual(['jpeg', 640, 424]);
    // The upload's own object is gone once processed.
    expect(await objectExists(`uploads/merchants/${merchantId}/locations/${locationId}/${first.id}`)).toBe(false);

    // A manager's second upload replaces it: the new version is served, the previous version's objects are deleted.
    const second = await uploadThrough(await sharp(jpeg).png().toBuffer(), 'image/png', tokens.manager);
    expect(second.state).toBe('ready');
    expect(second.image_version).not.toBe(first.image_version);
    const again = await api.call('GET', `/v15/locations/${locationId}/image?density=2&height=212&width=320`);
    expect(again.headers.get('location')).toContain(`/${second.image_version}/`);
    for (const key of Object.values(firstImage.objects)) expect(await objectExists(key)).toBe(false);

    // The audit log names who uploaded and both versions.
    const listed = await api.call('GET', `/v15/merchants/${merchantId}/audit_log?action=location.image_changed`, { token: tokens.owner });
    expect(listed.status, listed.text).toBe(200);
    const entries = listed.body.map((item: { audit_entry: Record<string, any> }) => item.audit_entry);
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({
      action: 'location.image_changed',
      actor: { kind: 'staff', staff_id: tokens.managerId, role: 'manager' },
      object: { type: 'location', id: String(locationId) },
      before: { image_version: first.image_version },
      after: { image_version: second.image_version, upload_id: second.id },
    });
    expect(entries[1]).toMatchObject({ actor: { staff_id: tokens.ownerId }, before: { image_version: null } });

    // A repeated S3 event of a processed upload changes nothing.
    const key = `uploads/merchants/${merchantId}/locations/${locationId}/${second.id}`;
    const repeated = { Records: [{ eventName: 'ObjectCreated:Post', s3: { object: { key } } }] } as unknown as S3Event;
    expect(await s3Handler(repeated)).toEqual(['duplicate']);
    expect((await getImage({ kind: 'location', locationId }))!.version).toBe(second.image_version);
    const after = await api.call('GET', `/v15/merchants/${merchantId}/audit_log?action=location.image_changed`, { token: tokens.owner });
    expect(after.body).toHaveLength(2);
  });

  it('fails, with a reason the merchant reads, what is not an accepted picture, and changes nothing', async () => {
    const before = (await getImage({ kind: 'location', locationId }))?.version;
    const cases: [Uint8Array, string, string][] = [
      [Buffer.from('this is not a picture at all'), 'image/jpeg', 'not_an_image'],
      [await sharp(jpeg).gif().toBuffer(), 'image/png', 'unsupported_format'],
      [pngClaiming(20_000, 20_000), 'image/png', 'too_many_pixels'],
    ];
    for (const [bytes, contentType, reason] of cases) {
      const failed = await uploadThrough(bytes, contentType);
      expect(failed, reason).toMatchObject({ state: 'failed', image_version: null, failure: { reason, message: expect.any(String) } });
      expect(failed.failure.message.length).toBeGreaterThan(10);
      expect(await objectExists(`uploads/merchants/${merchantId}/locations/${locationId}/${failed.id}`)).toBe(false);
    }
    expect((await getImage({ kind: 'location', locationId }))?.version).toBe(before);
  });

  it('fails a file over the limit (S3 refuses it by the policy; s3rver does not check policies, the processing checks again)', async () => {
    const before = (await getImage({ kind: 'location', locationId }))?.version;
    const tooLarge = Buffer.concat([jpeg, Buffer.alloc(MAX_UPLOAD_BYTES + 1 - jpeg.length)]);
    const failed = await uploadThrough(tooLarge);
    expect(failed).toMatchObject({ state: 'failed', failure: { reason: 'too_large' } });
    expect((await getImage({ kind: 'location', locationId }))?.version).toBe(before);
  });
});

describe('who may upload', () => {
  it('owner and manager; staff 403; another merchant 401; another location or no upload 404', async () => {
    const staff = await createUpload(tokens.staff);
    expect(staff.status).toBe(403);
    expect(staff.body).toEqual([{ error: expect.objectContaining({ object: 'access_token', property: 'role', code: 'role_not_allowed' }) }]);
    const created = await createUpload(tokens.owner);
    expect(created.status, created.text).toBe(201);
    const uploadId = created.body.image_upload.id;
    const showPath = `${uploadsPath(merchantId, locationId)}/${uploadId}`;
    expect((await api.call('GET', showPath, { token: tokens.staff })).status).toBe(403);
    expect((await api.call('GET', showPath, { token: tokens.manager })).body.image_upload).toMatchObject({ id: uploadId, state: 'pending' });

    const otherMerchant = await api.call('POST', uploadsPath(merchantId, locationId), {
      token: tokens.otherOwner,
      body: { image_upload: { content_type: 'image/jpeg' } },
    });
    expect(otherMerchant.status).toBe(401);
    expect((await api.call('GET', showPath, { token: tokens.otherOwner })).status).toBe(401);

    const elsewhere = await api.call('GET', `${uploadsPath(merchantId, otherLocationId)}/${uploadId}`, { token: tokens.owner });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body).toEqual([{ error: expect.objectContaining({ object: 'image_upload', property: 'id', code: 'not_found' }) }]);
    expect((await api.call('GET', `${uploadsPath(merchantId, locationId)}/${'0'.repeat(32)}`, { token: tokens.owner })).status).toBe(404);
    const noLocation = await api.call('POST', uploadsPath(merchantId, 999_999_999), {
      token: tokens.owner,
      body: { image_upload: { content_type: 'image/jpeg' } },
    });
    expect(noLocation.status).toBe(404);
  });

  it('refuses an undeclared type, and answers a repeated Idempotency-Key with the same upload', async () => {
    const gif = await createUpload(tokens.owner, 'image/gif');
    expect(gif.status).toBe(422);
    expect(gif.body[0].error).toMatchObject({ object: 'image_upload', property: 'content_type' });
    const headers = { 'Idempotency-Key': `upload-${Date.now()}` };
    const first = await createUpload(tokens.owner, 'image/jpeg', locationId, headers);
    const second = await createUpload(tokens.owner, 'image/jpeg', locationId, headers);
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
  });
});
