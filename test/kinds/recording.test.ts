/**
 * The recording kind on its own: its card drawn from the model (state + context + actions) at
 * start, after every transition and after every action, keeping every context field and
 * offering only the buttons that still apply; words shared by card and thread; old rows.
 */
import { readModel } from '../../src/kinds/kind';
import { type RecordingContext, recordingContext, recordingKind } from '../../src/kinds/recording';
import { messageFor } from '../../src/poller/messages';
import type { ArchiveSnapshot, GoneSnapshot } from '../../src/poller/snapshot';
import { ArchiveTargetSchema } from '../../src/views/archive-values';
import { RECORD_ACTION } from '../../src/views/ids';
import { decodeValue } from '../../src/views/values';
import { messageProblems } from '../harness/block-kit';
import { findElements, renderedText, visibleText } from '../harness/text';

const EVIL = '<!channel> & <@U999|boss> <https://evil.example|click> *bold*';
const LONG = 'x'.repeat(5000);
const SESSION_ID = `2_MX4${'a'.repeat(90)}`;
const ID = 'b40ef09b-3811-4726-b508-e41a0f96c68f';
const T0 = Date.parse('2026-11-02T17:00:00Z');

const context: RecordingContext = {
  startedBy: 'U0MOD',
  alias: 'standup',
  name: 'Weekly review',
  outputMode: 'composed',
  resolution: '1280x720',
  streamMode: 'manual',
  hasAudio: true,
  hasVideo: true,
  tag: 'board',
};

const state = (status: string, extra: Partial<ArchiveSnapshot> = {}): ArchiveSnapshot => ({
  status,
  createdAt: T0,
  durationS: status === 'started' ? 0 : 754,
  sizeBytes: ['available', 'uploaded'].includes(status) ? 8_400_000 : 0,
  name: 'Weekly review',
  ...extra,
});

const draw = (s: ArchiveSnapshot | GoneSnapshot | undefined, actions = [] as { action: string; by: string; at: number; detail?: string }[], ctx = context) =>
  recordingKind.render({ resourceId: ID, sessionId: SESSION_ID, projectName: 'prod', state: s, context: ctx, actions, now: T0 });

const buttons = (payload: unknown) => ({
  stop: findElements(payload, RECORD_ACTION.stop).length,
  download: findElements(payload, RECORD_ACTION.download).length,
  delete: findElements(payload, RECORD_ACTION.delete).length,
});

/** Every context field, as the card shows it. */
const CONTEXT_SHOWN = [
  '*Started by*\n<@U0MOD>',
  'started recording session `standup`',
  '*Output*\nComposed, 1280x720',
  '*Streams*\nChosen streams (manual)',
  '*Tag*\n`board`',
  `(\`${SESSION_ID}\`)`,
];

const stopAt = { action: 'stop', by: 'U0ANA', at: T0 + 60_000 };
const deleteAt = { action: 'delete', by: 'U0BOB', at: T0 + 120_000 };

describe('recording card from its model', () => {
  it.each([
    ['at start', state('started'), [], { stop: 1, download: 0, delete: 0 }, 'Recording'],
    ['paused (transition)', state('paused'), [], { stop: 1, download: 0, delete: 0 }, 'Paused — nobody is publishing'],
    ['resumed (transition)', state('started', { durationS: 30 }), [], { stop: 1, download: 0, delete: 0 }, 'Recording'],
    [
      'stopped by @ana (action)',
      state('stopped', { reason: 'user initiated' }),
      [stopAt],
      { stop: 0, download: 0, delete: 0 },
      'Stopped — the file is being processed',
    ],
    [
      'stopped when everyone left (transition)',
      state('stopped', { reason: 'session ended' }),
      [],
      { stop: 0, download: 0, delete: 0 },
      'everyone left the session',
    ],
    ['available (transition)', state('available'), [stopAt], { stop: 0, download: 1, delete: 1 }, 'Available to download'],
    ['uploaded (transition)', state('uploaded'), [stopAt], { stop: 0, download: 0, delete: 1 }, 'Uploaded to the upload target'],
    ['expired (transition)', state('expired'), [stopAt], { stop: 0, download: 0, delete: 0 }, 'Expired — no longer downloadable'],
    ['failed (transition)', state('failed', { reason: 'failure' }), [], { stop: 0, download: 0, delete: 0 }, 'Failed'],
    ['deleted by @bob (action)', state('deleted'), [stopAt, deleteAt], { stop: 0, download: 0, delete: 0 }, 'Deleted'],
    ['gone (transition)', { status: 'gone' } as GoneSnapshot, [stopAt], { stop: 0, download: 0, delete: 0 }, 'No longer known to the video service'],
  ])('%s: every context field survives, only the buttons that apply', (_when, s, actions, expected, label) => {
    const card = draw(s, actions);
    expect(messageProblems(card)).toEqual([]);
    const text = renderedText(card);
    for (const shown of CONTEXT_SHOWN) expect(text).toContain(shown);
    expect(text).toContain(label);
    expect(buttons(card)).toEqual(expected);
    if (actions.some((a) => a.action === 'stop')) expect(text).toContain('Stopped by <@U0ANA>');
    if (actions.some((a) => a.action === 'delete')) expect(text).toContain('Deleted by <@U0BOB>');
    // The fallback text names the recording, the alias (not the raw ID) and the status.
    expect(card.text).toMatch(/^Recording Weekly review of session standup: /);
    // Every button keeps the context it needs when the card is redrawn from a click.
    for (const element of [...findElements(card, RECORD_ACTION.stop), ...findElements(card, RECORD_ACTION.delete)]) {
      expect(decodeValue(ArchiveTargetSchema, element.value as string)).toEqual({ p: 'prod', r: ID, s: SESSION_ID, a: 'standup', u: 'U0MOD', o: 'card' });
    }
  });

  it('says the same words for why it stopped on the card and in the thread', () => {
    for (const reason of ['session ended', 'maximum duration exceeded', 'maximum idle time exceeded']) {
      const onCard = renderedText(draw(state('stopped', { reason })));
      const inThread = messageFor({ key: 'archive:stopped', severity: 'warning', event: { type: 'archive-stopped', reason } });
      const words = inThread.replace('Recording stopped: ', '');
      expect(onCard).toContain(`*Why it stopped*\n${words}`);
    }
  });

  it('captures the context from the start response', () => {
    const captured = recordingContext(
      { name: null, outputMode: 'individual', resolution: null, streamMode: 'auto', hasAudio: true, hasVideo: false, multiArchiveTag: 'main' },
      { startedBy: 'U1', alias: 'daily' },
    );
    expect(captured).toEqual({ startedBy: 'U1', alias: 'daily', outputMode: 'individual', streamMode: 'auto', hasAudio: true, hasVideo: false, tag: 'main' });
    const text = renderedText(draw(state('started'), [], captured));
    expect(text).toContain('*Output*\nOne file per stream');
    expect(text).toContain('*Streams*\nAll streams (auto) · audio only');
  });

  it('a row stored by the previous version (no card model) renders with what its snapshot holds', () => {
    const model = readModel(recordingKind, undefined);
    expect(model).toEqual({ context: {}, actions: [] });
    const card = draw(state('available'), model.actions, model.context);
    expect(messageProblems(card)).toEqual([]);
    expect(renderedText(card)).toContain('Available to download');
    expect(renderedText(card)).not.toContain('*Output*');
    expect(buttons(card)).toEqual({ stop: 0, download: 1, delete: 1 });
    // A damaged model is read as empty rather than failing the redraw.
    expect(readModel(recordingKind, { context: { startedBy: 42 }, actions: 'x' })).toEqual({ context: {}, actions: [] });
  });

  it('escapes names, aliases and tags, and stays within limits with a huge name', () => {
    const card = draw(state('available', { name: `${EVIL} ${LONG}` }), [], { ...context, alias: EVIL, tag: EVIL });
    expect(messageProblems(card)).toEqual([]);
    const text = visibleText(card);
    expect(text).not.toContain('<!channel>');
    expect(text).not.toContain('<@U999');
    expect(card.text.length).toBeLessThanOrEqual(3000);
  });

  it('names the session by its raw ID only when it has no alias', () => {
    const card = draw(state('started'), [], { startedBy: 'U0MOD' });
    expect(card.text).toContain(SESSION_ID);
  });
});
