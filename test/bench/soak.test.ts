/**
 * The soak's judgement (bench/soak): which notifications count as lost or duplicated, how RSS
 * growth is measured, which aims a run missed, and the command mix it sends.
 */
import { mulberry32 } from '../../bench/lib/stats';
import { NotificationLedger, notificationId, tsToMs } from '../../bench/soak/ledger';
import { UNDO_MUTE_ALL, nextCommand } from '../../bench/soak/load';
import { type RssSample, brokenRun, missedAims, rssGrowth } from '../../bench/soak/report';

const MB = 1024 * 1024;

describe('notificationId', () => {
  it('reads resource and transition from an idempotency key, without the revision', () => {
    expect(notificationId('T0SOAK:C0001SOAK:archive:5f1c-aa:archive:available@3')).toBe('5f1c-aa|archive:available');
    expect(notificationId('T0SOAK:C0001SOAK:broadcast:b-1:broadcast:rtmp:out:offline@12')).toBe('b-1|broadcast:rtmp:out:offline');
  });

  it('ignores keys of another shape', () => {
    expect(notificationId('card@2')).toBeUndefined();
  });
});

describe('tsToMs', () => {
  it('turns a Slack ts into epoch milliseconds, microseconds kept as a fraction', () => {
    expect(tsToMs('1795386534.268500')).toBe(1795386534268.5);
    expect(tsToMs('1795386534.5')).toBe(1795386534500);
  });
});

describe('NotificationLedger', () => {
  const key = (id: string, transition: string, revision = 1) => `T0SOAK:C0001SOAK:archive:${id}:${transition}@${revision}`;

  it('counts an expected notification posted once as delivered, with its latency', () => {
    const ledger = new NotificationLedger();
    ledger.expect('a1|archive:stopped', 1_000);
    ledger.observe([{ key: key('a1', 'archive:stopped'), postedAt: 4_500 }]);
    expect(ledger.totals(10_000)).toEqual({
      expected: 1,
      delivered: 1,
      lost: [],
      duplicates: [],
      unexpected: [],
      latencies: [3_500],
      heldBy429: [],
      clear: [3_500],
    });
  });

  it('sets apart the latency of a notification whose channel Slack answered 429 before it was posted', () => {
    const ledger = new NotificationLedger();
    ledger.expect('a1|archive:stopped', 1_000);
    ledger.expect('a2|archive:stopped', 1_000);
    ledger.rateLimited({ channel: 'C0001SOAK', at: 1_500 });
    ledger.rateLimited({ channel: 'C0002SOAK', at: 1_500 });
    ledger.observe([
      { key: key('a1', 'archive:stopped'), postedAt: 3_000 },
      { key: 'T0SOAK:C0003SOAK:archive:a2:archive:stopped@1', postedAt: 2_000 },
    ]);
    const totals = ledger.totals(10_000);
    expect({ held: totals.heldBy429, clear: totals.clear }).toEqual({ held: [2_000], clear: [1_000] });
  });

  it('reports a due notification never posted as lost, and one not yet due as neither', () => {
    const ledger = new NotificationLedger();
    ledger.expect('a1|archive:stopped', 1_000);
    ledger.expect('a1|archive:available', 6_000);
    ledger.observe([]);
    expect(ledger.totals(5_000).lost).toEqual(['a1|archive:stopped']);
  });

  it('reports the same transition posted twice as a duplicate, even under another revision', () => {
    const ledger = new NotificationLedger();
    ledger.expect('a1|archive:stopped', 1_000);
    ledger.observe([
      { key: key('a1', 'archive:stopped', 1), postedAt: 2_000 },
      { key: key('a1', 'archive:stopped', 2), postedAt: 9_000 },
    ]);
    const totals = ledger.totals(10_000);
    expect(totals.duplicates).toEqual(['a1|archive:stopped ×2']);
    // The first post decides the latency.
    expect(totals.latencies).toEqual([1_000]);
  });

  it('reports posts of changes nobody made as unexpected', () => {
    const ledger = new NotificationLedger();
    ledger.observe([{ key: key('a9', 'archive:paused'), postedAt: 2_000 }]);
    expect(ledger.totals(10_000).unexpected).toEqual(['a9|archive:paused']);
  });

  it('gives a window the notifications that fell due in it and those first posted in it', () => {
    const ledger = new NotificationLedger();
    ledger.expect('a1|archive:stopped', 1_000);
    ledger.expect('a2|archive:stopped', 12_000);
    ledger.observe([
      { key: key('a1', 'archive:stopped'), postedAt: 11_000 },
      { key: key('a2', 'archive:stopped'), postedAt: 25_000 },
    ]);
    expect(ledger.window(0, 10_000)).toEqual({ due: 1, delivered: 0, latencies: [], duplicates: 0, unexpected: 0 });
    expect(ledger.window(10_000, 20_000)).toEqual({ due: 1, delivered: 1, latencies: [10_000], duplicates: 0, unexpected: 0 });
  });
});

describe('rssGrowth', () => {
  const samples = (values: number[]): RssSample[] => values.map((mb, at) => ({ at, bytes: mb * MB }));

  it('compares the median after the warm-up with the median at the end, ignoring the warm-up', () => {
    // Warm-up (0–2 s) climbs steeply; afterwards 100 MB, then 105 MB at the end.
    const verdict = rssGrowth(samples([50, 80, 100, 100, 101, 100, 104, 105, 105]), 2, 3)!;
    expect(verdict.baselineMb).toBe(100);
    expect(verdict.finalMb).toBe(105);
    expect(verdict.growthPct).toBeCloseTo(5);
    expect(verdict.peakMb).toBe(105);
    expect(verdict.slopeMbPerMin).toBeGreaterThan(0);
  });

  it('is not fooled by one collection spike at the end', () => {
    const verdict = rssGrowth(samples([100, 100, 100, 100, 100, 100, 100, 160, 100]), 0, 3)!;
    expect(verdict.growthPct).toBe(0);
    expect(verdict.peakMb).toBe(160);
  });

  it('declines to judge without samples after the warm-up', () => {
    expect(rssGrowth(samples([100, 110]), 5, 3)).toBeUndefined();
  });
});

describe('missedAims', () => {
  const rss = { baselineMb: 100, finalMb: 105, growthPct: 5, peakMb: 110, slopeMbPerMin: 0.5 };

  it('is empty when every aim is met', () => {
    expect(missedAims({ rss, lost: 0, duplicates: 0, vidopsP99: 26, floorP99: 20 })).toEqual([]);
  });

  it('names each aim missed', () => {
    const missed = missedAims({ rss: { ...rss, growthPct: 12 }, lost: 2, duplicates: 1, vidopsP99: 40, floorP99: 20 });
    expect(missed).toEqual([
      'RSS grew 12.0 % after the warm-up (aim < 10 %)',
      '2 notification(s) lost (aim 0)',
      '1 notification(s) posted more than once (aim 0)',
      "p99 ack 40.0 ms is 2.00× the bare Bolt app's 20.0 ms (aim ≤ 1.3×)",
    ]);
  });

  it('judges the event loop, peak RSS, the trend of long runs and the latency when given', () => {
    const missed = missedAims({
      rss: { ...rss, peakMb: 151, slopeMbPerMin: 0.3 },
      lost: 0,
      duplicates: 0,
      vidopsP99: 20,
      floorP99: 20,
      loopP99Ms: 12,
      latencyP99Ms: 4_200,
      fastMs: 3_000,
      minutes: 60,
    });
    expect(missed).toEqual([
      'peak RSS 151.0 MB (aim ≤ 150 MB)',
      'RSS trend +0.30 MB/min after the warm-up (aim ≤ 0.2 MB/min)',
      'event loop delay p99 12.0 ms after the warm-up (aim ≤ 10 ms)',
      'change → post p99 4.2 s without Slack 429s (aim ≤ 4.0 s, the fast interval + 1 s)',
    ]);
    expect(
      missedAims({
        rss: { ...rss, slopeMbPerMin: 0.3 },
        lost: 0,
        duplicates: 0,
        vidopsP99: 20,
        floorP99: 20,
        loopP99Ms: 10,
        latencyP99Ms: 4_000,
        fastMs: 3_000,
        minutes: 10,
      }),
    ).toEqual([]);
  });

  it('counts a run without floor samples as a miss rather than a pass', () => {
    expect(missedAims({ rss, lost: 0, duplicates: 0, vidopsP99: 10, floorP99: NaN })).toHaveLength(1);
  });
});

describe('brokenRun', () => {
  it('names what makes the figures untrustworthy, and nothing for a run that went as meant', () => {
    expect(brokenRun({ sent: 100, acked: 100, errors: {}, expected: 5, unexpected: 0 })).toEqual([]);
    expect(brokenRun({ sent: 100, acked: 98, errors: { 'ack over 3 s': 2 }, expected: 0, unexpected: 1 })).toEqual([
      '2 of 100 commands not acked',
      'load errors: ack over 3 s 2',
      'no resource change was expected to be posted (the driver did nothing)',
      '1 notification(s) of nothing the driver changed',
    ]);
  });
});

describe('nextCommand', () => {
  it('mixes reads, mute-alls undone from their notice and the odd usage report, always for a known session', () => {
    const random = mulberry32(1);
    const sessions = ['s1', 's2', 's3'];
    const kinds = new Map<string, number>();
    const commands = Array.from({ length: 20_000 }, () => nextCommand(random, sessions));
    for (const c of commands) kinds.set(c.kind, (kinds.get(c.kind) ?? 0) + 1);
    const sessionTexts = new Set(commands.filter((c) => c.command === '/streams' || c.command === '/mute-all').map((c) => c.text));
    expect([...sessionTexts].sort()).toEqual(sessions);
    expect(new Set(commands.filter((c) => c.command === '/mute-all').map((c) => c.click))).toEqual(new Set([UNDO_MUTE_ALL]));
    const share = (kind: string) => (kinds.get(kind) ?? 0) / 20_000;
    expect(share('/streams')).toBeCloseTo(0.3, 1);
    expect(share('/mute-all + Undo')).toBeCloseTo(0.15, 1);
    expect(share('/usage')).toBeGreaterThan(0.0005);
    expect(share('/usage')).toBeLessThan(0.005);
  });
});
