/** The captions kind: its card from the model at start, when it ends by the clock and after Stop. */
import { readModel } from '../../src/kinds/kind';
import { type CaptionsContext, captionsKind } from '../../src/kinds/captions';
import type { CaptionsSnapshot } from '../../src/poller/snapshot';
import { ACTION } from '../../src/views/ids';
import { messageProblems } from '../harness/block-kit';
import { findElements, renderedText } from '../harness/text';

const T0 = Date.parse('2026-11-02T17:00:00Z');
const SESSION_ID = `2_MX4${'c'.repeat(60)}`;
const ID = '7c0680fc-6274-4de5-a66f-d0648e8d3ac2';
const context: CaptionsContext = { startedBy: 'U0MOD', alias: 'standup', languageCode: 'fr-FR', partialCaptions: false };
const active: CaptionsSnapshot = { status: 'active', startedAt: T0, maxDurationS: 1800 };
const ended: CaptionsSnapshot = { ...active, status: 'ended' };

const draw = (state: CaptionsSnapshot, actions: { action: string; by: string; at: number }[] = [], ctx = context) =>
  captionsKind.render({ resourceId: ID, sessionId: SESSION_ID, projectName: 'prod', state, context: ctx, actions, now: T0 });

const FIELDS = [
  '<@U0MOD> started live captions in session `standup`',
  'French (France) (`fr-FR`)',
  'off (final captions only)',
  '*Stops by itself*\nafter 30 min',
  `session ID \`${SESSION_ID}\``,
  `\`${ID}\``,
];

describe('captions card from its model', () => {
  it.each([
    ['at start', active, [], 1, ':large_green_circle: running'],
    ['ended by the clock (transition)', ended, [], 0, ':black_circle: ended — maximum duration reached (30 min)'],
    ['stopped by @ana (action)', ended, [{ action: 'stop', by: 'U0ANA', at: T0 + 60_000 }], 0, ':black_circle: ended — stopped by <@U0ANA>'],
  ])('%s: every context field survives, Stop only while running', (_when, state, actions, stops, status) => {
    const card = draw(state, actions);
    expect(messageProblems(card)).toEqual([]);
    const text = renderedText(card);
    for (const field of FIELDS) expect(text).toContain(field);
    expect(text).toContain(`*Status*\n${status}`);
    expect(findElements(card, ACTION.stopCaptions)).toHaveLength(stops);
    expect(card.text).toContain('session standup');
  });

  it('a row stored by the previous version renders what the snapshot holds', () => {
    const model = readModel(captionsKind, undefined);
    const card = draw(active, model.actions, model.context);
    expect(messageProblems(card)).toEqual([]);
    expect(renderedText(card)).toContain(':large_green_circle: running');
    expect(findElements(card, ACTION.stopCaptions)).toHaveLength(1);
  });
});
