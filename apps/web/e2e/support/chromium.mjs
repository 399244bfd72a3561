// Headless Chromium as the browser tests run it: Debian's, driven by playwright-core (no browser
// download). Plain JavaScript so that `scripts/test.mjs` starts the run's shared browser with the
// same switches as a test file that launches its own.
import { chromium } from 'playwright-core';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Where a browser started for the whole run listens (`npm test` sets it for every browser test
 * file): a file then connects to it instead of launching its own, which cost 3 s of CPU each time.
 */
export const SHARED_BROWSER_ENV = 'YOUJU_BROWSER_WS';

const options = {
  executablePath: chromiumPath,
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};

/** The run's shared browser when there is one, else a browser of the caller's own. */
export function launchBrowser() {
  const shared = process.env[SHARED_BROWSER_ENV];
  return shared ? chromium.connect(shared) : chromium.launch(options);
}

/** A browser others connect to (`launchBrowser` in their process); `close()` ends it. */
export function launchSharedBrowser() {
  return chromium.launchServer(options);
}
