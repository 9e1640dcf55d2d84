/**
 * The pieces around the poller core: its settings from the environment, callback hints, card
 * redraws and the dashboard (against Slack's Block Kit limits), and the Home refresh throttle.
 */
import { hintIds } from '../../src/poller/service';
import { cardRenderer } from '../../src/poller/cards';
import { HomeRefresher, HomeViewers } from '../../src/poller/home-refresh';
import { DEFAULT_POLLER_SETTINGS, pollerSettingsFromEnv } from '../../src/poller/settings';
import { ALL_SESSIONS, type Snapshot, type WatchKind, discoverySnapshot } from '../../src/poller/snapshot';
import { type Transition, expiryTransition } from '../../src/poller/transitions';
import type { Watch } from '../../src/poller/watch';
import { dashboardBlocks } from '../../src/views/dashboard';
import { watchButtons } from '../../src/views/dashboard-buttons';
import { watchesMessage } from '../../src/views/dashboard-watch';
import { homeView } from '../../src/views/home';
import { ACTION } from '../../src/views/ids';
import { homeProblems, messageProblems } from '../harness/block-kit';
import { renderedText } from '../harness/text';

describe('poller settings from the environment', () => {
  it('has sane defaults', () => {
    expect(pollerSettingsFromEnv({})).toEqual({ ok: true, settings: DEFAULT_POLLER_SETTINGS });
  });

  it('reads budgets, intervals, limits, watch ages and the callback token', () => {
    const result = pollerSettingsFromEnv({
      VIDOPS_POLL_RATE: '20',
      VIDOPS_POLL_BURST: '40',
      VIDOPS_POLL_PROJECT_BUDGETS: 'prod=50/100, staging=2',
      VIDOPS_POLL_FAST_SECONDS: '2',
      VIDOPS_POLL_SLOW_SECONDS: '30',
      VIDOPS_POLL_TICK_MS: '250',
      VIDOPS_POLL_MAX_WATCHES: '5000',
      VIDOPS_WATCH_MAX_AGE_HOURS: 'archive=48,captions=2',
      VIDOPS_CALLBACK_TOKEN: 'a'.repeat(32),
      VIDOPS_POLLER: 'off',
      VIDOPS_POLLER_THREAD: 'off',
    });
    expect(result.ok && result.settings).toMatchObject({
      enabled: false,
      thread: false,
      budget: { refillPerSecond: 20, capacity: 40 },
      projectBudgets: { prod: { refillPerSecond: 50, capacity: 100 }, staging: { refillPerSecond: 2, capacity: 4 } },
      schedule: { fastMs: 2_000, slowMs: 30_000 },
      tickMs: 250,
      claimLimit: 5_000,
      perProjectLimit: 2_500,
      maxWatchAgeMs: { archive: 48 * 3_600_000, captions: 2 * 3_600_000, broadcast: 12 * 3_600_000 },
      callbackToken: 'a'.repeat(32),
    });
    const everyKind = pollerSettingsFromEnv({ VIDOPS_WATCH_MAX_AGE_HOURS: '6' });
    expect(everyKind.ok && Object.values(everyKind.settings.maxWatchAgeMs)).toEqual(Array(8).fill(6 * 3_600_000));
  });

  it('reports every problem at once, naming the variable, never echoing a value', () => {
    const result = pollerSettingsFromEnv({
      VIDOPS_POLL_RATE: 'fast',
      VIDOPS_POLL_BURST: '1',
      VIDOPS_POLL_SLOW_SECONDS: '1',
      VIDOPS_WATCH_MAX_AGE_HOURS: 'recording=3',
      VIDOPS_CALLBACK_TOKEN: 'short secret!',
      VIDOPS_POLLER: 'maybe',
      VIDOPS_POLLER_THREAD: 'a worker please',
    });
    expect(result.ok).toBe(false);
    const problems = result.ok ? [] : result.problems;
    expect(problems.map((p) => p.split(' ')[0])).toEqual([
      'VIDOPS_POLLER',
      'VIDOPS_POLLER_THREAD',
      'VIDOPS_POLL_RATE',
      'VIDOPS_POLL_BURST',
      'VIDOPS_POLL_SLOW_SECONDS',
      'VIDOPS_WATCH_MAX_AGE_HOURS',
      'VIDOPS_CALLBACK_TOKEN',
    ]);
    expect(problems.join('\n')).not.toContain('short secret');
  });
});

describe('callback hints', () => {
  it('finds id, captionsId and sessionId at any depth', () => {
    const ids = hintIds({ event: 'ended', data: { id: 'R1', sessionId: 'S1' }, items: [{ captionsId: 'C1' }], id: 7 });
    expect(ids).toEqual({ id: new Set(['R1']), captionsId: new Set(['C1']), sessionId: new Set(['S1']) });
    expect(hintIds('not an object')).toEqual({ id: new Set(), captionsId: new Set(), sessionId: new Set() });
  });
});

const T0 = 1_793_638_800_000;

function watch(kind: WatchKind, state: Snapshot | undefined, overrides: Partial<Watch> = {}): Watch {
  return {
    id: `T1:C1:${kind}:R-${kind}`,
    kind,
    resourceId: `R-${kind}-0123456789`,
    sessionId: '2_MX40session',
    teamId: 'T1',
    channelId: 'C1',
    messageTs: '1793638800.000001',
    projectName: 'prod',
    lastState: state,
    lastChangeAt: T0,
    nextPollAt: T0,
    createdAt: T0,
    expiresAt: T0 + 3_600_000,
    failures: 0,
    revision: 1,
    repollRequested: false,
    ...overrides,
  };
}

const STATES: [WatchKind, Snapshot][] = [
  ['archive', { status: 'paused', createdAt: T0 - 60_000, durationS: 0, sizeBytes: 0, name: 'Board <review> & *plans*' }],
  ['archive', { status: 'available', createdAt: T0 - 60_000, durationS: 754, sizeBytes: 84_000_000, name: 'Board review' }],
  ['broadcast', { status: 'started', createdAt: T0, hls: 'live', rtmp: { yt: 'offline', twitch: 'live' }, observedAt: T0 }],
  ['render', { status: 'started', createdAt: T0, name: 'Whiteboard' }],
  ['captions', { status: 'active', startedAt: T0, maxDurationS: 300 }],
  ['sip', { status: 'ended', streamId: 's1', dialedAt: T0, neverConnected: true }],
  ['audio', { status: 'active' }],
  ['session-discovery', discoverySnapshot(undefined, { kinds: ['archive', 'render'], allSessions: true })],
  ['archive', { status: 'gone' }],
];

describe('card redraws', () => {
  const transition: Transition = { key: 'archive:paused', severity: 'warning', event: { type: 'archive-paused' } };

  it.each(STATES)('draws a %s card within Block Kit limits, names escaped', (kind, state) => {
    const card = cardRenderer({ clock: () => T0 })(watch(kind, state), state, [transition]);
    expect(card).toBeDefined();
    expect(messageProblems({ text: card!.text, blocks: card!.blocks })).toEqual([]);
    expect(JSON.stringify(card)).not.toContain('<review>');
  });

  const redraw = (kind: WatchKind, state: Snapshot) => cardRenderer({ clock: () => T0 })(watch(kind, undefined), state, [])!;

  it('keeps the Stop button of a running composer or captions, drops it once ended', () => {
    const running = redraw('render', { status: 'started', createdAt: T0 });
    expect(JSON.stringify(running.blocks)).toContain(ACTION.stopRender);
    const stopped = redraw('render', { status: 'stopped', createdAt: T0 });
    expect(JSON.stringify(stopped.blocks)).not.toContain(ACTION.stopRender);
    expect(watchButtons(watch('captions', { status: 'ended', startedAt: T0, maxDurationS: 300 }))).toEqual([]);
  });

  it('keeps Hang up on a redrawn call card and Stop on an audio connection card while they run', () => {
    const call = { status: 'connected' as const, streamId: 'st-1', dialedAt: T0, connectionId: 'conn-call' };
    const callCard = redraw('sip', call);
    expect(JSON.stringify(callCard.blocks)).toContain(ACTION.sipHangUp);
    expect(JSON.stringify(callCard.blocks)).toContain('conn-call');
    expect(watchButtons(watch('sip', { ...call, status: 'ended' }))).toEqual([]);
    const audio = { status: 'active' as const, connectionId: 'conn-audio' };
    const audioCard = redraw('audio', audio);
    expect(JSON.stringify(audioCard.blocks)).toContain(ACTION.stopAudio);
    expect(watchButtons(watch('audio', { ...audio, status: 'ended' }))).toEqual([]);
  });

  it('draws a session watch that expired as stopped, when and after how long, with no Stop watching', () => {
    const state = discoverySnapshot({ archives: [], broadcasts: [] });
    const stored = watch('session-discovery', state, { card: { context: { startedBy: 'U0MOD', since: T0 - 24 * 3_600_000 }, actions: [] } });
    const card = cardRenderer({ clock: () => T0 })(stored, state, [expiryTransition('session-discovery', state)])!;
    expect(renderedText(card.blocks)).toContain('*Status*\n:black_circle: stopped — expired after 24 h, <!date^');
    expect(JSON.stringify(card.blocks)).not.toContain(ACTION.stopWatching);
    expect(card.text).toContain('Stopped watching session 2_MX40session');
  });

  it('draws a broadcast with its own card (statuses only, Stop while it runs)', () => {
    const [, state] = STATES[2]!;
    const card = cardRenderer({ clock: () => T0 })(watch('broadcast', state), state, []);
    expect(JSON.stringify(card!.blocks)).toContain(ACTION.broadcastStop);
    expect(renderedText(card!.blocks)).toContain('twitch');
  });
});

describe('the dashboard', () => {
  it('fits the Home tab with hundreds of watches, and names the scope of a watch on every session', () => {
    const many: Watch[] = [];
    for (let i = 0; i < 300; i++) {
      const [kind, state] = STATES[i % STATES.length]!;
      many.push(
        watch(kind, state, { id: `w${i}`, resourceId: `R${i}-0123456789`, sessionId: kind === 'session-discovery' ? ALL_SESSIONS : 'S1', createdAt: T0 + i }),
      );
    }
    const dashboard = dashboardBlocks({ watches: many, now: T0, buttons: (w) => watchButtons(w) });
    const view = homeView({ role: 'viewer', commands: [], aliases: [], recent: [], now: T0, dashboard });
    expect(homeProblems(view)).toEqual([]);
    const text = renderedText(view);
    expect(text).toContain('every session of *prod*');
    expect(text).toMatch(/and \d+ more/);
    expect(messageProblems(watchesMessage(many, T0))).toEqual([]);
  });

  it('says what to do when nothing is watched', () => {
    expect(renderedText(dashboardBlocks({ watches: [], now: T0 }))).toContain('`/video watch`');
  });
});

describe('Home refreshes after deliveries', () => {
  it('refreshes the team’s recent viewers at most once per throttle period', async () => {
    jest.useFakeTimers();
    try {
      let now = T0;
      const viewers = new HomeViewers();
      viewers.opened('T1', 'U1', now);
      viewers.opened('T1', 'U2', now);
      viewers.opened('T2', 'U3', now);
      const published: string[] = [];
      const refresher = new HomeRefresher({
        viewers,
        publish: async (team, user) => void published.push(`${team}/${user}`),
        logger: { debug: jest.fn(), info: jest.fn(), warn: jest.fn(), error: jest.fn() },
        throttleMs: 30_000,
        clock: () => now,
      });
      refresher.deliveredTo('T1');
      refresher.deliveredTo('T1');
      await jest.advanceTimersByTimeAsync(0);
      expect(published).toEqual(['T1/U2', 'T1/U1']);
      refresher.deliveredTo('T1');
      now += 10_000;
      await jest.advanceTimersByTimeAsync(10_000);
      expect(published).toHaveLength(2);
      now += 20_000;
      await jest.advanceTimersByTimeAsync(20_000);
      expect(published).toHaveLength(4);
      refresher.stop();
    } finally {
      jest.useRealTimers();
    }
  });
});
