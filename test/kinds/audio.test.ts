/** The audio-connection kind: its card from the model while waiting, sending, ended and after Stop. */
import { readModel } from '../../src/kinds/kind';
import { audioContext, audioKind } from '../../src/kinds/audio';
import type { AudioSnapshot } from '../../src/poller/snapshot';
import { ACTION } from '../../src/views/ids';
import { messageProblems } from '../harness/block-kit';
import { findElements, renderedText } from '../harness/text';

const T0 = Date.parse('2026-11-02T17:00:00Z');
const SESSION_ID = `2_MX4${'e'.repeat(60)}`;
const ID = 'audio-1';
const context = audioContext(
  { connectionId: 'conn-audio', uri: 'wss://asr.example.com/in', streams: ['s1', 's2'], audioRate: 8000, headerNames: ['Authorization'] },
  { startedBy: 'U0MOD', alias: 'standup' },
);
const snap = (status: AudioSnapshot['status']): AudioSnapshot => ({ status, streamIds: ['s1', 's2'], connectionId: 'conn-audio' });
const draw = (state: AudioSnapshot, actions: { action: string; by: string; at: number }[] = [], ctx = context) =>
  audioKind.render({ resourceId: ID, sessionId: SESSION_ID, projectName: 'prod', state, context: ctx, actions, now: T0 });
const FIELDS = [
  '<@U0MOD> is sending the audio of session `standup` to `wss://asr.example.com/in`',
  '`s1`, `s2`',
  '8 kHz',
  '*Connection*\n`conn-audio`',
  '`Authorization`',
];

describe('audio-connection card from its model', () => {
  it.each([
    ['at start', snap('waiting'), [], 1, ':hourglass_flowing_sand: waiting for a stream'],
    ['sending (transition)', snap('active'), [], 1, ':large_green_circle: sending'],
    ['ended (transition)', snap('ended'), [], 0, ':black_circle: ended'],
    ['stopped by @ana (action)', snap('ended'), [{ action: 'stop', by: 'U0ANA', at: T0 + 1 }], 0, ':black_circle: ended — stopped by <@U0ANA>'],
  ])('%s: every context field survives, Stop only while it runs', (_when, state, actions, stops, status) => {
    const card = draw(state, actions);
    expect(messageProblems(card)).toEqual([]);
    const text = renderedText(card);
    for (const field of FIELDS) expect(text).toContain(field);
    expect(text).toContain(`*Status*\n${status}`);
    expect(findElements(card, ACTION.stopAudio)).toHaveLength(stops);
    expect(card.text).toContain('session standup');
  });

  it('a row stored by the previous version keeps Stop from the connection in its snapshot', () => {
    const model = readModel(audioKind, undefined);
    const card = draw(snap('active'), model.actions, model.context);
    expect(messageProblems(card)).toEqual([]);
    expect(findElements(card, ACTION.stopAudio)).toHaveLength(1);
  });
});
