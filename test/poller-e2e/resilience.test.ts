/**
 * When Slack or the video service misbehave for a while: Slack's 429s and 500s delay
 * notifications (only in the channel concerned) but lose none and repeat none, a post whose
 * answer was lost is found again instead of posted twice, and a failing video service makes the
 * project back off, then catch up with what changed meanwhile.
 */
import { archiveSnapshot } from '../../src/poller/snapshot';
import { CHANNEL, type TestApp, startTestApp } from '../harness/app';
import { card, duplicates, postedKeys, threadTexts, trackWithCard } from './helpers';

describe('poller end to end when Slack or the video service fail for a while', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startTestApp({ poller: true });
  });
  afterEach(async () => {
    expect(duplicates(postedKeys(t))).toEqual([]);
    expect(duplicates(postedKeys(t, 'C0OTHER'))).toEqual([]);
    await t.close();
  });

  const video = () => t.services.projects.client('prod');

  /** A recording in `channel` whose card waits for news. */
  async function recording(channel = CHANNEL) {
    const seeded = t.seedSession({ streams: 1 });
    const started = await video().archives.start({ sessionId: seeded.sessionId, name: `Rec ${channel}` });
    const ts = await trackWithCard(t, {
      channel,
      kind: 'archive',
      resourceId: started.id,
      sessionId: seeded.sessionId,
      initialState: archiveSnapshot(started),
    });
    return { seeded, started, ts };
  }

  it('holds back a rate-limited channel until Retry-After, then delivers everything once and in order; other channels go on', async () => {
    const slow = await recording(CHANNEL);
    const fast = await recording('C0OTHER');
    t.slack.failNext('chat.postMessage', { status: 429, retryAfterSeconds: 20 }, 2, (body) => body.channel === CHANNEL);
    await video().archives.stop(slow.started.id);
    await video().archives.stop(fast.started.id);
    await t.poller!.step(3_000);
    expect(threadTexts(t, slow.ts)).toEqual([]);
    expect(threadTexts(t, fast.ts, 'C0OTHER')).toEqual(['Recording stopped on request']);

    await t.poller!.step(6_000);
    expect(threadTexts(t, fast.ts, 'C0OTHER')).toEqual(['Recording stopped on request', expect.stringMatching(/^Recording available/)]);
    expect(threadTexts(t, slow.ts)).toEqual([]);

    for (let i = 0; i < 6; i++) await t.poller!.step(10_000);
    expect(threadTexts(t, slow.ts)).toEqual(['Recording stopped on request', expect.stringMatching(/^Recording available/)]);
    expect(card(t, slow.ts).text).toMatch(/: Available to download$/);
  });

  it('retries after Slack answers 500, and finds a post whose answer was lost instead of posting it again', async () => {
    const rec = await recording();
    t.slack.failNext('chat.postMessage', { status: 500 }, 2);
    t.slack.failNext('chat.postMessage', { status: 500, applied: true }, 1);
    await video().archives.stop(rec.started.id);
    // Two plain 500s (back-off 2 s, then 4 s), then one that posted but lost its answer; the
    // next reply then waits out the channel's pacing interval (one more step).
    for (let i = 0; i < 9; i++) await t.poller!.step(2_000);
    expect(threadTexts(t, rec.ts)).toEqual(['Recording stopped on request', expect.stringMatching(/^Recording available/)]);
    const replies = t.slack.callsOf('conversations.replies');
    expect(replies.length).toBeGreaterThan(0);
    expect(replies[0]!.body).toMatchObject({ channel: CHANNEL, ts: rec.ts, include_all_metadata: 'true' });
    const [row] = (await t.store.listOutbox(`T0TEST:${CHANNEL}:archive:${rec.started.id}`)).filter((r) => r.payload.type === 'reply');
    expect(row).toMatchObject({ attempts: 4, deliveredAt: expect.any(Number) });
  });

  it('backs off while the video service fails, then catches up with what changed meanwhile', async () => {
    const rec = await recording();
    await t.poller!.step(3_000);
    await video().archives.stop(rec.started.id);
    // Twelve failed reads: each attempt is a read and its second try at once (a 5xx may be in passing).
    t.emulator.control.injectFault({ path: '/archive', kind: 'status', status: 503, count: 12 });
    const failedAt: number[] = [];
    for (let i = 0; i < 60 && threadTexts(t, rec.ts).length < 2; i++) {
      const { cycle } = await t.poller!.step(3_000);
      if (cycle.failedProjects.includes('prod')) failedAt.push(t.emulator.control.now());
    }
    // Two failed reads per attempt, each attempt later than the one before (1 s, 2 s, 4 s, 8 s,
    // 16 s… apart, on 3 s steps).
    expect(failedAt).toHaveLength(6);
    const gaps = failedAt.slice(1).map((at, i) => at - failedAt[i]!);
    expect(gaps).toEqual([...gaps].sort((a, b) => a - b));
    expect(gaps.at(-1)!).toBeGreaterThanOrEqual(16_000);
    expect(threadTexts(t, rec.ts)).toEqual(['Recording stopped on request', expect.stringMatching(/^Recording available/)]);
  });
});
