import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/** Debian's Chromium (`.ci/run` installs it when missing); playwright-core never downloads a browser. */
export const CHROMIUM = '/usr/bin/chromium';
/** Without the background-networking flags Chromium keeps dialing out, and this machine has no network. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Headless Chromium with a throwaway profile; `close()` removes the profile too. */
export async function launchChromium(): Promise<{ browser: BrowserContext; close(): Promise<void> }> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'chromium-'));
  const browser = await chromium.launchPersistentContext(userDataDir, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  return {
    browser,
    async close() {
      await browser.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}
