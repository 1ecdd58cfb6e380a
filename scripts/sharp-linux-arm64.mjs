/**
 * `postinstall`: sharp's linux-arm64 (glibc) build, at the version package-lock.json pins, into
 * .cache/sharp-linux-arm64, for the image processing function's asset (infra/constructs/image-processing.ts).
 * npm installs only the host's binary; Lambda runs arm64 Linux. Does nothing when the cache already holds
 * that version, so a second `npm install` stays fast and offline.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cache = join(root, '.cache', 'sharp-linux-arm64');
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
const version = lock.packages?.['node_modules/sharp']?.version;
if (!version) throw new Error('package-lock.json pins no sharp version');

function installedVersion(name) {
  const manifest = join(cache, 'node_modules', name, 'package.json');
  return existsSync(manifest) ? JSON.parse(readFileSync(manifest, 'utf8')).version : undefined;
}

if (installedVersion('sharp') === version && installedVersion('@img/sharp-linux-arm64') === version) {
  process.exit(0);
}
rmSync(cache, { recursive: true, force: true });
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
execFileSync(
  npm,
  ['install', '--prefix', cache, '--os=linux', '--cpu=arm64', '--libc=glibc', '--no-save', '--no-audit', '--no-fund', '--no-package-lock', `sharp@${version}`],
  { stdio: 'inherit', shell: process.platform === 'win32' },
);
if (installedVersion('@img/sharp-linux-arm64') !== version) throw new Error(`sharp ${version}: no linux-arm64 binary in ${cache}`);
