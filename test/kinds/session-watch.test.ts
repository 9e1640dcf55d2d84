/** The session watch kind: its card from the model at start, after each transition and after Stop watching. */
import { actionLine, readModel } from '../../src/kinds/kind';
import { EXPIRED_REPLY, type SessionWatchContext, sessionWatchKind } from '../../src/kinds/session-watch';
import { ALL_SESSIONS, type DiscoverySnapshot, discoverySnapshot } from '../../src/poller/snapshot';
import { ACTION } from '../../src/views/ids';
import { messageProblems } from '../harness/block-kit';
import { findElements, renderedText } from '../harness/text';

const T0 = Date.parse('2026-11-02T17:00:00Z');
const HOUR = 3_600_000;
const SESSION_ID = `2_MX4${'c'.repeat(60)}`;
const context: SessionWatchContext = { startedBy: 'U0MOD', channelId: 'C0OPS', alias: 'standup', kinds: ['archive', 'render'], since: T0 };
const watching: DiscoverySnapshot = discoverySnapshot({ archives: ['A1'], broadcasts: [], renders: [] }, { kinds: ['archive', 'render'] });
const found = { type: 'discovered-archive' as const, text: 'New recording started in this session: “Board” (`A2`)' };
const expired = { type: 'watch-expired' as const, text: EXPIRED_REPLY };
const unwatch = { action: 'unwatch', by: 'U0ANA', at: T0 + 2 * HOUR };

type Latest = { type: 'discovered-archive' | 'watch-expired'; text: string }[];
const draw = (opts: { actions?: (typeof unwatch)[]; latest?: Latest; ctx?: SessionWatchContext; sessionId?: string; now?: number } = {}) =>
  sessionWatchKind.render({
    resourceId: opts.sessionId ?? SESSION_ID,
    sessionId: opts.sessionId ?? SESSION_ID,
    projectName: 'prod',
    state: watching,
    context: opts.ctx ?? context,
    actions: opts.actions ?? [],
    now: opts.now ?? T0 + HOUR,
    ...(opts.latest && { latest: opts.latest }),
  });

const FIELDS = [
  'session `standup`',
  '*Watching for*\nrecordings and composers',
  '*Set up by*\n<@U0MOD> in <#C0OPS>',
  `*Since*\n<!date^${T0 / 1000}^`,
  `session ID \`${SESSION_ID}\``,
  'Project *prod*',
];

describe('session watch card from its model', () => {
  it.each([
    ['at start', {}, 1, ':eyes: watching', '<@U0MOD> is watching session standup for new recordings and composers started outside this channel.'],
    ['after a poll found a recording (transition)', { latest: [found] }, 1, ':eyes: watching', '<@U0MOD> is watching'],
    [
      'expired by its maximum age (transition)',
      { latest: [expired], now: T0 + 24 * HOUR },
      0,
      ':black_circle: stopped — expired after 24 h, <!date^',
      'Stopped watching session standup',
    ],
    [
      'unwatched by @ana (action)',
      { actions: [unwatch] },
      0,
      `:black_circle: stopped — unwatched by <@U0ANA> <!date^${unwatch.at / 1000}^`,
      'Stopped watching session standup',
    ],
  ] as const)('%s: every context field survives, Stop watching only while it runs', (_when, opts, stops, status, fallback) => {
    const card = draw(opts as Parameters<typeof draw>[0]);
    expect(messageProblems(card)).toEqual([]);
    const text = renderedText(card);
    for (const field of FIELDS) expect(text).toContain(field);
    expect(text).toContain(`*Status*\n${status}`);
    expect(findElements(card, ACTION.stopWatching)).toHaveLength(stops);
    expect(card.text).toContain(fallback);
  });

  it('lists what the poll found, and says who stopped it and when', () => {
    expect(renderedText(draw({ latest: [found] }))).toContain(`*Found lately*\n${found.text}`);
    expect(renderedText(draw({ latest: [expired] }))).not.toContain('Found lately');
    const stopped = renderedText(draw({ actions: [unwatch] }));
    expect(stopped).toContain(`Stopped watching by <@U0ANA> <!date^${unwatch.at / 1000}^{time}`);
    expect(stopped).not.toContain('/video unwatch');
    expect(actionLine(sessionWatchKind, unwatch)).toBe('Stopped watching by <@U0ANA>');
  });

  it('Stop watching carries the session and its alias', () => {
    const [stop] = findElements(draw(), ACTION.stopWatching) as { value?: string }[];
    expect(JSON.parse(stop!.value!)).toEqual({ p: 'prod', s: SESSION_ID, a: 'standup' });
  });

  it('a watch of every session names the project, not a session', () => {
    const card = draw({ sessionId: ALL_SESSIONS, ctx: { ...context, alias: undefined } as SessionWatchContext });
    expect(card.text).toBe('<@U0MOD> is watching every session of prod for new recordings and composers started outside this channel.');
    expect(renderedText(card)).not.toContain('session ID');
  });

  it('a row stored by the previous version renders what the snapshot holds', () => {
    const model = readModel(sessionWatchKind, undefined);
    const card = draw({ ctx: model.context });
    expect(messageProblems(card)).toEqual([]);
    expect(card.text).toBe(`Watching session ${SESSION_ID} for new recordings and composers started outside this channel.`);
    expect(renderedText(card)).toContain('*Status*\n:eyes: watching');
    expect(findElements(card, ACTION.stopWatching)).toHaveLength(1);
  });
});
