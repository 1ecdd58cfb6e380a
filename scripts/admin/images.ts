/**
 * `npm run admin -- upload-image`: an operator's picture of a location, a campaign (its image or its
 * reward icon) or an order-ahead menu item, resized once here to every documented size and density of
 * its kind (shared/domain/app-surface/image-variants.ts, which a merchant's presigned upload uses too), stored
 * in S3 under a new version, then recorded; the previous upload's objects are deleted after. The API's
 * image routes only read the record and sign a URL (shared/domain/app-surface/images.ts): sharp never
 * runs, nor is bundled, in a request function.
 *
 * Which S3: IMAGES_BUCKET (+ S3_ENDPOINT for an S3-compatible server); with `--local`, the `npm start`
 * stack's s3rver (.local/settings.json), or, when it is not running, one started on .local/s3 for the command.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CommandError, UsageError, integerOption, optionsOf, stringOption, type AdminCommand } from './options.ts';
import { getLocation } from '#shared/domain/merchants/locations.ts';
import { getCampaign } from '#shared/domain/loyalty/campaigns.ts';
import { findMenuItem, getMenuById } from '#shared/domain/order-ahead/menu.ts';
import { IMAGE_KINDS, recordImage, type ImageKind, type ImageSubject } from '#shared/domain/app-surface/images.ts';
import { MAX_UPLOAD_BYTES, pictureProblem, storeVariants } from '#shared/domain/app-surface/image-variants.ts';
import { deleteImages } from '#shared/images/store.ts';

async function subjectFrom(values: Record<string, string | boolean | undefined>): Promise<ImageSubject> {
  const kind = stringOption(values, 'kind', true);
  if (!(IMAGE_KINDS as readonly string[]).includes(kind)) throw new UsageError(`--kind must be one of ${IMAGE_KINDS.join(', ')}`);
  switch (kind as ImageKind) {
    case 'location': {
      const locationId = integerOption(values, 'location-id', true);
      if (!(await getLocation(locationId))) throw new CommandError(`location ${locationId} does not exist`);
      return { kind: 'location', locationId };
    }
    case 'campaign-image':
    case 'campaign-icon': {
      const campaignId = integerOption(values, 'campaign-id', true);
      if (!(await getCampaign(campaignId))) throw new CommandError(`campaign ${campaignId} does not exist`);
      return { kind: kind as 'campaign-image' | 'campaign-icon', campaignId };
    }
    case 'menu-item': {
      const menuId = integerOption(values, 'menu-id', true);
      const itemId = integerOption(values, 'item-id', true);
      const menu = await getMenuById(menuId);
      if (!menu) throw new CommandError(`menu ${menuId} does not exist`);
      if (!findMenuItem(menu, itemId)) throw new CommandError(`menu ${menuId} has no item ${itemId}`);
      return { kind: 'menu-item', menuId, itemId };
    }
  }
}

/** Points the image store at the local stack's s3rver (started here when the stack is not running). */
async function chooseLocalS3(): Promise<() => Promise<void>> {
  const localDirectory = join(fileURLToPath(new URL('../..', import.meta.url)), '.local');
  const { LOCAL_IMAGES_BUCKET, startS3Local } = await import('../local/s3.ts');
  process.env.IMAGES_BUCKET ??= LOCAL_IMAGES_BUCKET;
  const settingsFile = join(localDirectory, 'settings.json');
  const settings = existsSync(settingsFile) ? (JSON.parse(readFileSync(settingsFile, 'utf8')) as { s3_endpoint?: string }) : {};
  if (settings.s3_endpoint) {
    const answers = await fetch(settings.s3_endpoint, { signal: AbortSignal.timeout(2000) }).then(
      () => true,
      () => false,
    );
    if (answers) {
      process.env.S3_ENDPOINT = settings.s3_endpoint;
      return async () => undefined;
    }
  }
  const s3 = await startS3Local({ directory: join(localDirectory, 's3') });
  process.env.S3_ENDPOINT = s3.endpoint;
  return () => s3.stop();
}

export const uploadImageCommand: AdminCommand = {
  summary: 'Upload the picture of a location, a campaign (image or reward icon) or a menu item: resized to every documented size, stored in S3.',
  usage: [
    '--kind location --location-id <id> --file <picture>',
    '        | --kind campaign-image|campaign-icon --campaign-id <id> --file <picture>',
    '        | --kind menu-item --menu-id <id> --item-id <id> --file <picture>',
    '        (JPEG, PNG, WebP, GIF, AVIF or TIFF, at most 20 MB; sizes: docs/app-surface.md)',
  ].join('\n'),
  options: optionsOf(['kind', 'location-id', 'campaign-id', 'menu-id', 'item-id', 'file']),
  async run(values) {
    const file = stringOption(values, 'file', true);
    if (!existsSync(file) || !statSync(file).isFile()) throw new CommandError(`${file} is not a file`);
    if (statSync(file).size > MAX_UPLOAD_BYTES) throw new CommandError(`${file} is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB`);
    const subject = await subjectFrom(values);
    const input = readFileSync(file);
    const problem = await pictureProblem(input);
    if (problem) throw new CommandError(`${file}: ${problem.message}`);
    const cleanup = values.local === true && !process.env.S3_ENDPOINT ? await chooseLocalS3() : async () => undefined;
    try {
      const { version, objects } = await storeVariants(subject, input);
      const replaced = await recordImage(subject, version, objects);
      if (replaced) await deleteImages(Object.values(replaced.objects));
      return { image: { kind: subject.kind, version, variants: Object.keys(objects) } };
    } finally {
      await cleanup();
    }
  },
};
