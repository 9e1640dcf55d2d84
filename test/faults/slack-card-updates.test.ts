/**
 * The poller's Slack calls failing: chat.update of a card answering 429 with Retry-After, then
 * 500 — the card ends up showing the last state and each thread reply is posted once (emulator
 * clock; nothing sleeps).
 */
import { CHANNEL, startTestApp, type TestApp } from '../harness/app';
import { renderedText } from '../harness/text';
import { card, duplicates, postedKeys, threadTexts } from '../poller-e2e/helpers';

describe('Slack faults on the poller’s card updates', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ poller: true });
  });
  afterAll(async () => {
    await t.close();
  });

  it('chat.update 429 (Retry-After 20 s) then 500: the card shows the final state, replies once each', async () => {
    const { sessionId } = t.seedSession({ streams: 1 });
    const since = t.slack.mark();
    await t.slash('/record', `start ${sessionId}`);
    const posted = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL && renderedText(c.body).includes(sessionId), { since });
    const cardTs = t.slack.messages(CHANNEL).find((m) => m.text === posted.body.text)!.ts;
    let archiveId: string | undefined;
    while (!archiveId) {
      archiveId = (await t.store.listWatches({ kind: 'archive', sessionId }))[0]?.resourceId;
      if (!archiveId) await t.services.ackGate.idle();
    }
    await t.poller!.step(3_000);

    t.slack.failNext('chat.update', { status: 429, retryAfterSeconds: 20 }, 1, (body) => body.ts === cardTs);
    t.slack.failNext('chat.update', { status: 500 }, 1, (body) => body.ts === cardTs);
    await t.services.projects.client('prod').archives.stop(archiveId);
    for (let i = 0; i < 12; i++) await t.poller!.step(5_000);

    expect(threadTexts(t, cardTs)).toEqual(['Recording stopped on request', expect.stringMatching(/^Recording available/)]);
    expect(card(t, cardTs).text).toMatch(/Available to download$/);
    expect(duplicates(postedKeys(t))).toEqual([]);
    const updates = t.slack.callsOf('chat.update', since).filter((c) => c.body.ts === cardTs);
    // The two failed updates were tried again: the last one succeeded with the final state.
    expect(updates.length).toBeGreaterThanOrEqual(3);
    expect(renderedText(updates[updates.length - 1]!.body)).toMatch(/Available to download/);
  });
});
