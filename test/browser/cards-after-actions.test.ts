/**
 * Cards that tell the truth after an action, in local mode (the poller running on its own, as in
 * production): a broadcast and a composer stopped from a typed command end up "stopped" on their
 * cards, name who stopped them and offer no Stop — on a desktop and on a phone. Before, a poll
 * that had read the resource just before the stop drew its older state back over the card. The
 * typed stop's question (one card, no dialog) names the session by its alias and fits the phone.
 */
import type { Browser, Locator } from 'playwright-core';
import { type RunningLocal, startLocal } from '../../src/local/start';
import { describeWithChromium, expectNoSidewaysScroll, launchChromium, openLocalPage, screenshot, scrollIntoView } from './chromium';

jest.setTimeout(180_000);

describeWithChromium('cards after an action', () => {
  let local: RunningLocal;
  let browser: Browser;

  beforeAll(async () => {
    local = await startLocal({ port: 0, env: { DATABASE_URL: 'sqlite::memory:' }, logLevel: 'error' });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await local?.stop();
  });

  for (const [width, height, device] of [
    [1440, 900, 'desktop'],
    [390, 844, 'phone'],
  ] as const) {
    test(`${device}: a stopped broadcast and composer say so and offer no Stop`, async () => {
      const { context, page, errors, run, messages } = await openLocalPage(browser, local.url, { width, height });
      // A typed stop answers with one card only the asker sees: it is the question, so its button acts (no dialog).
      const answerLast = async (button: string) => {
        await messages().filter({ hasText: 'Only visible to you' }).last().getByRole('button', { name: button }).click();
        expect(await page.getByRole('dialog').count()).toBe(0);
      };
      const stoppedBy = (card: Locator) =>
        card
          .getByText(/Stopped by/)
          .first()
          .waitFor();

      await run(`/broadcast start demo --tag ${device} --rtmp yt=rtmps://a.rtmp.youtube.com:443/live2/KEY-${device} --hls`);
      // The card (not the notices) by what stays on it through every redraw: its tag.
      const broadcast = messages().filter({ hasText: 'RTMP output' }).filter({ hasText: device }).first();
      await broadcast.getByRole('button', { name: 'Stop broadcast' }).waitFor();
      await run('/broadcast stop');
      // The question names the session by its alias (the raw ID only in its small print) and fits the screen.
      const question = messages().filter({ hasText: 'Only visible to you' }).filter({ hasText: 'Stop broadcast' }).last();
      await question.getByText(/of session demo\?/).waitFor();
      await scrollIntoView(question);
      await expectNoSidewaysScroll(page);
      await screenshot(page, `confirmation-${device}`);
      await answerLast('Stop broadcast');
      await stoppedBy(broadcast);
      await broadcast.getByRole('button', { name: 'Stop broadcast' }).waitFor({ state: 'detached' });

      await run(`/render start https://meet.example.com/board/42 demo --name Board-${device} --resolution 1920x1080`);
      const composer = messages()
        .filter({ hasText: 'Stream name' })
        .filter({ hasText: `Board-${device}` })
        .first();
      await composer.getByRole('button', { name: 'Stop' }).waitFor();
      await run('/render stop');
      await answerLast('Stop composer');
      await stoppedBy(composer);
      await composer.getByRole('button', { name: 'Stop', exact: true }).waitFor({ state: 'detached' });

      for (const card of [broadcast, composer]) {
        const text = (await card.textContent()) ?? '';
        expect(text).not.toMatch(/🟢 live/);
        expect(text).toMatch(/stopped/i);
      }
      await scrollIntoView(composer);
      await screenshot(page, `cards-stopped-${device}`);
      // Nothing wider than the window (no sideways scrolling on a phone).
      await expectNoSidewaysScroll(page);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
