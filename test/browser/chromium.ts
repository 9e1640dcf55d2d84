/**
 * Debian's Chromium (installed by .ci/run) driven by playwright-core. Playwright gives every
 * launch a fresh temporary profile (user-data-dir) and removes it on close.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Browser, type Locator, type Page, chromium } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-quic',
  '--disable-sync',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

export const RESULTS_DIR = resolve(__dirname, '..', '..', 'test-results');

/** Full-page PNG under test-results/ (gitignored); returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const path = join(RESULTS_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: false });
  return path;
}

/**
 * Brings a card into view for a screenshot. Playwright's scrollIntoViewIfNeeded waits for the
 * element to stay still and throws when the poller redraws the card meanwhile; this scrolls the
 * node it found, and a redrawn card sits where the old one was.
 */
export async function scrollIntoView(target: Locator): Promise<void> {
  await target.evaluate((element) => element.scrollIntoView({ block: 'nearest' }));
}

/** Fails the test on any error the page logs or throws (broken module, failed render…). */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  return errors;
}

/**
 * A suite that needs Chromium at /usr/bin/chromium (.ci/run installs it): required under
 * CI=true, skipped with a message elsewhere when it is missing — like the PostgreSQL suites.
 */
export function describeWithChromium(name: string, body: () => void): void {
  const missing = existsSync(CHROMIUM_PATH) ? undefined : `Chromium is not installed at ${CHROMIUM_PATH} (apt-get install chromium).`;
  if (missing && process.env.CI === 'true') {
    describe(name, () => {
      it('needs Chromium when CI=true', () => {
        throw new Error(missing);
      });
    });
  } else if (missing) {
    console.warn(`Skipping ${name}. ${missing}`);
    describe.skip(`${name} (skipped: no Chromium)`, () => {
      it('needs Chromium', () => undefined);
    });
  } else {
    describe(name, body);
  }
}

/** Fails unless nothing on the page is wider than the window (no sideways scrolling on a phone). */
export async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const { scrollWidth, clientWidth } = await page
    .locator('html')
    .evaluate((html) => ({ scrollWidth: (html as { scrollWidth: number }).scrollWidth, clientWidth: (html as { clientWidth: number }).clientWidth }));
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
}

/** The local page at one screen size, once it is live: how a person types a command, and the channel's messages. */
export async function openLocalPage(browser: Browser, url: string, viewport: { width: number; height: number }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  const errors = collectPageErrors(page);
  await page.goto(url);
  await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
  const run = async (line: string) => {
    const composer = page.getByLabel('Slash command');
    await composer.fill(line);
    await composer.press('Enter');
  };
  const messages = () => page.getByRole('region', { name: 'Messages' }).getByRole('article');
  return { context, page, errors, run, messages };
}
