import { chromium, type Browser } from 'playwright-core';

/**
 * Debian's Chromium (FACTS.md "Tooling"): playwright-core downloads no browser. The flags keep
 * it from calling Google services, so the test can assert that the page alone talks to no one
 * but the service.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--no-first-run',
    ],
  });
}
