/**
 * On-call from a phone, in local mode (the poller running on its own, as in production): the
 * session console names the channel's default session by its alias, marks who vidops muted and
 * by whom, `/kick <name>` asks once naming the person and the session, and nothing is wider than
 * the screen — at 390×844 and at 1440×900.
 */
import type { Browser } from 'playwright-core';
import { type RunningLocal, startLocal } from '../../src/local/start';
import { describeWithChromium, expectNoSidewaysScroll, launchChromium, openLocalPage, screenshot, scrollIntoView } from './chromium';

jest.setTimeout(180_000);

describeWithChromium('on-call from a phone', () => {
  let local: RunningLocal;
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  // Each screen size starts from the seeded session as it was: nobody muted, nobody kicked.
  beforeEach(async () => {
    local = await startLocal({ port: 0, env: { DATABASE_URL: 'sqlite::memory:' }, logLevel: 'error' });
  });
  afterEach(async () => {
    await local?.stop();
  });

  for (const [width, height, device] of [
    [390, 844, 'phone'],
    [1440, 900, 'desktop'],
  ] as const) {
    test(`${device}: the console by alias, a mute marked, one question before a kick, nothing off the screen`, async () => {
      const { context, page, errors, run, messages } = await openLocalPage(browser, local.url, { width, height });
      const privateAnswers = () => messages().filter({ hasText: 'Only visible to you' });

      await run('/streams');
      const console1 = privateAnswers().filter({ hasText: 'Alice' }).last();
      // Kick's accessible name says what it does, and to whom.
      await console1.getByRole('button', { name: 'Disconnect Alice' }).waitFor();
      const header = (await console1.getByRole('heading').first().textContent()) ?? '';
      expect(header).toContain('demo');
      expect(header).not.toMatch(/[12]_[A-Za-z0-9_-]{20,}/);
      expect((await console1.textContent()) ?? '').not.toMatch(/muted by/i);
      await expectNoSidewaysScroll(page);
      await screenshot(page, `console-${device}`);

      await run('/mute alice');
      await messages().filter({ hasText: /muted/i }).filter({ hasText: 'Alice' }).first().waitFor();
      await run('/streams');
      const console2 = privateAnswers()
        .filter({ hasText: /muted by/i })
        .last();
      await console2.waitFor();
      expect((await console2.textContent()) ?? '').toMatch(/Alice[\s\S]*muted by/i);
      await expectNoSidewaysScroll(page);
      await scrollIntoView(console2);
      await screenshot(page, `console-muted-${device}`);

      // Insights knows who publishes a stream about 5 minutes after it starts: the side panel's clock.
      const advanced = await fetch(new URL('/local/emulator/advance', local.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ seconds: 360 }),
      });
      expect(advanced.ok).toBe(true);
      await run('/kick chidi');
      const question = privateAnswers()
        .filter({ hasText: /Disconnect/ })
        .filter({ hasText: 'Chidi' })
        .last();
      await question.waitFor();
      const asked = (await question.textContent()) ?? '';
      expect(asked).toContain('demo');
      await expectNoSidewaysScroll(page);
      await scrollIntoView(question);
      await screenshot(page, `kick-question-${device}`);
      await question.getByRole('button', { name: 'Disconnect' }).click();
      // One question: the card was it, so no dialog opens on its button.
      await messages()
        .filter({ hasText: /disconnected/i })
        .filter({ hasText: 'Chidi' })
        .first()
        .waitFor();
      expect(await page.getByRole('dialog').count()).toBe(0);
      await expectNoSidewaysScroll(page);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
