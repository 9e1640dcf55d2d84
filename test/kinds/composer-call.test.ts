/**
 * The composer and phone-call kinds: each card drawn from its model at start, after every
 * transition and after each action keeps every context field, and offers Stop, or Hang up and the
 * keypad, only while they apply.
 */
import { readModel } from '../../src/kinds/kind';
import { callContext, callKind } from '../../src/kinds/call';
import { composerContext, composerKind } from '../../src/kinds/composer';
import type { GoneSnapshot, RenderSnapshot, SipSnapshot } from '../../src/poller/snapshot';
import { ACTION } from '../../src/views/ids';
import { keyActionId } from '../../src/views/sip';
import { messageProblems } from '../harness/block-kit';
import { findElements, renderedText } from '../harness/text';

const T0 = Date.parse('2026-11-02T17:00:00Z');
const SESSION_ID = `2_MX4${'d'.repeat(60)}`;

describe('composer card from its model', () => {
  const ID = '76fb0d74-6f1e-41b6-9dec-26b01beb2ce3';
  const context = composerContext(
    {
      id: ID,
      sessionId: SESSION_ID,
      status: 'starting',
      url: 'https://meet.example.com/board/42',
      createdAt: T0,
      name: 'Whiteboard',
      resolution: '1920x1080',
      streamId: 'st-1',
    },
    { startedBy: 'U0MOD', alias: 'standup', maxDuration: 3600 },
  );
  const draw = (state: RenderSnapshot | GoneSnapshot, actions: { action: string; by: string; at: number }[] = [], ctx = context) =>
    composerKind.render({ resourceId: ID, sessionId: SESSION_ID, projectName: 'prod', state, context: ctx, actions, now: T0 });
  const FIELDS = [
    '<@U0MOD> started publishing a web page into session `standup`',
    'https://meet.example.com/board/42',
    '*Resolution*\n1920x1080',
    '*Stream name*\nWhiteboard',
    `session ID \`${SESSION_ID}\``,
  ];

  it.each([
    ['at start', { status: 'starting', createdAt: T0 }, [], 1, ':hourglass_flowing_sand: starting'],
    ['started (transition)', { status: 'started', createdAt: T0 }, [], 1, ':large_green_circle: live'],
    [
      'stopped by @ana (action)',
      { status: 'stopped', createdAt: T0, reason: 'Stop Requested' },
      [{ action: 'stop', by: 'U0ANA', at: T0 + 1 }],
      0,
      ':white_circle: stopped (stop requested)',
    ],
    ['stopped at its maximum duration (transition)', { status: 'stopped', createdAt: T0, reason: 'Max Duration Exceeded' }, [], 0, 'maximum duration reached'],
    ['failed (transition)', { status: 'failed', createdAt: T0, reason: 'page crashed' }, [], 0, ':x: failed (page crashed)'],
    ['gone (transition)', { status: 'gone' }, [], 0, 'gone'],
  ] as const)('%s: URL, resolution, name kept; Stop and "stops by itself" only while it runs', (_when, state, actions, stops, status) => {
    const card = draw(state as RenderSnapshot, [...actions]);
    expect(messageProblems(card)).toEqual([]);
    const text = renderedText(card);
    for (const field of FIELDS) expect(text).toContain(field);
    expect(text).toContain(status);
    expect(findElements(card, ACTION.stopRender)).toHaveLength(stops);
    expect(text.includes('*Stops by itself*\nafter 1 h')).toBe(stops === 1);
    if (actions.length > 0) expect(text).toContain('Stopped by <@U0ANA>');
    expect(card.text).toMatch(/^Composer “Whiteboard” in session standup: /);
  });

  it('a row stored by the previous version renders what its snapshot holds', () => {
    const model = readModel(composerKind, undefined);
    const card = draw({ status: 'started', createdAt: T0, name: 'Board' }, model.actions, model.context);
    expect(messageProblems(card)).toEqual([]);
    expect(renderedText(card)).toContain('*Stream name*\nBoard');
    expect(findElements(card, ACTION.stopRender)).toHaveLength(1);
  });
});

describe('phone-call card from its model', () => {
  const ID = 'call-1';
  const facts = {
    uri: 'sip:+15551234567@sip.example.com',
    from: '+15557654321@example.com',
    secure: true,
    video: false,
    observeForceMute: true,
    headerNames: ['X-Room'],
    digestAuth: true,
  };
  const context = callContext({ id: ID, connectionId: 'conn-call', streamId: 'stream-call' }, facts, { startedBy: 'U0MOD', alias: 'standup' });
  const call = (status: SipSnapshot['status'], extra: Partial<SipSnapshot> = {}): SipSnapshot => ({
    status,
    streamId: 'stream-call',
    dialedAt: T0,
    connectionId: 'conn-call',
    ...extra,
  });
  const draw = (state: SipSnapshot, actions: { action: string; by: string; at: number }[] = [], ctx = context) =>
    callKind.render({ resourceId: ID, sessionId: SESSION_ID, projectName: 'prod', state, context: ctx, actions, now: T0 });
  const FIELDS = [
    '<@U0MOD> dialed `sip:+15551234567@sip.example.com` into session `standup`',
    '`+15557654321@example.com`',
    'encrypted media',
    'digest credentials',
    '`X-Room`',
    '*Connection*\n`conn-call`',
    '*Stream*\n`stream-call`',
  ];

  it.each([
    ['at start (ringing)', call('dialing'), [], true, ':hourglass_flowing_sand: ringing'],
    ['connected (transition)', call('connected'), [], true, ':large_green_circle: connected'],
    ['hung up by @ana (action)', call('ended'), [{ action: 'hang-up', by: 'U0ANA', at: T0 + 1 }], false, ':black_circle: ended — hung up by <@U0ANA>'],
    ['never answered (transition)', call('ended', { neverConnected: true }), [], false, ':black_circle: ended — never connected'],
  ])('%s: number, options, connection kept; Hang up and keypad only during the call', (_when, state, actions, live, status) => {
    const card = draw(state, actions);
    expect(messageProblems(card)).toEqual([]);
    const text = renderedText(card);
    for (const field of FIELDS) expect(text).toContain(field);
    expect(text).toContain(`*Status*\n${status}`);
    expect(findElements(card, ACTION.sipHangUp)).toHaveLength(live ? 1 : 0);
    expect(findElements(card, keyActionId('5'))).toHaveLength(live ? 1 : 0);
    expect(JSON.stringify(card)).not.toMatch(/password/i);
  });

  it('a row stored by the previous version keeps Hang up from the connection in its snapshot', () => {
    const model = readModel(callKind, undefined);
    const card = draw(call('connected'), model.actions, model.context);
    expect(messageProblems(card)).toEqual([]);
    expect(findElements(card, ACTION.sipHangUp)).toHaveLength(1);
  });
});
