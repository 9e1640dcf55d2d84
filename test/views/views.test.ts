import {
  VideoApiError,
  VideoAuthError,
  VideoConflictError,
  VideoConnectionError,
  VideoNotFoundError,
  VideoRateLimitError,
  VideoTimeoutError,
  VideoValidationError,
} from '../../src/api';
import { COMMANDS } from '../../src/commands';
import { muteCommand } from '../../src/commands/mute';
import { parseCommand } from '../../src/commands/grammar';
import { encodeSessionOption } from '../../src/interaction/session-ref';
import { sessionCommand } from '../../src/commands/session';
import { auditChannelMessage, auditListMessage } from '../../src/views/audit';
import { clampMrkdwn, stripMrkdwn, textMessage } from '../../src/views/blocks';
import { aliasesMessage, channelBoundNotice, channelDefaultsMessage } from '../../src/views/channel';
import { deniedMessage } from '../../src/views/denied';
import { describeError, errorMessage } from '../../src/views/errors';
import { appHelp, commandHelp } from '../../src/views/help';
import { homeView } from '../../src/views/home';
import { ACTION, CALLBACK } from '../../src/views/ids';
import { infoModal, muteEveryoneModal } from '../../src/views/modals';
import {
  kickNotice,
  layoutClassesNotice,
  muteAllNotice,
  muteAllUndoneNotice,
  muteStreamNotice,
  sessionCreatedNotice,
  signalNotice,
  unmuteAllNotice,
} from '../../src/views/notices';
import { sessionOptions } from '../../src/views/session-options';
import { MAX_CONSOLE_ROWS, renderConsole } from '../../src/kinds/session-console';
import { kickPersonCard, kickPersonNotice, nobodyMessage, pickerMessage } from '../../src/views/people';
import { layoutClassesModal } from '../../src/views/streams';
import { usageMessage } from '../../src/views/usage';
import { StreamTargetSchema, UndoMuteAllSchema, decodeValue } from '../../src/views/values';
import { homeProblems, messageProblems, modalProblems, optionsProblems } from '../harness/block-kit';
import { renderedText, visibleText } from '../harness/text';

const EVIL = '<!channel> & <@U999|boss> <https://evil.example|click> *bold*';
const LONG = 'x'.repeat(5000);
const SESSION_ID = `2_MX4${'a'.repeat(90)}`;
const s = { projectName: 'prod', sessionId: SESSION_ID, alias: 'standup' };
const stream = (i: number, name = `Participant ${i}`) => ({
  id: `8b732909-0a06-46a2-8ea8-${String(i).padStart(12, '0')}`,
  videoType: 'camera',
  name,
  layoutClassList: ['focus', `c${i}`],
});

function expectNoInjection(payload: unknown): void {
  const text = visibleText(payload);
  expect(text).not.toContain('<!channel>');
  expect(text).not.toContain('<@U999');
  expect(text).not.toContain('<https://evil');
}

describe('message builders stay within Block Kit limits and escape user text', () => {
  const messages: [string, unknown][] = [
    ['console (none)', renderConsole({ session: s, streams: [], mutes: { streams: [] }, now: 0 })],
    ['console (no alias)', renderConsole({ session: { projectName: 'prod', sessionId: SESSION_ID }, streams: [stream(1)], mutes: { streams: [] }, now: 0 })],
    [
      'people: nobody',
      nobodyMessage(
        s,
        `${EVIL} ${LONG}`,
        Array.from({ length: 60 }, (_v, i) => stream(i, `${EVIL} ${LONG}`)),
        'mute',
      ),
    ],
    ['people: kick notice', kickPersonNotice('U0MOD', s, 'c1', `${EVIL} ${LONG}`)],
    ['mute notice', muteStreamNotice('U0MOD', s, 'st-1', EVIL)],
    [
      'mute-all notice',
      muteAllNotice(
        'U0MOD',
        s,
        Array.from({ length: 40 }, (_v, i) => `stream-${i}`),
      ),
    ],
    ['unmute-all notice', unmuteAllNotice('U0MOD', s)],
    ['kick notice', kickNotice('U0MOD', s, 'conn-1')],
    ['signal notice', signalNotice('U0MOD', s, { type: EVIL, data: `${EVIL}\n${LONG}`, to: 'conn-1' })],
    [
      'layout notice',
      layoutClassesNotice(
        'U0MOD',
        s,
        Array.from({ length: 30 }, (_v, i) => ({ id: `s${i}`, layoutClassList: ['a', 'b'] })),
      ),
    ],
    [
      'layout notice with Undo too large for a button',
      layoutClassesNotice(
        'U0MOD',
        s,
        Array.from({ length: 60 }, (_v, i) => ({ id: `8b732909-0a06-46a2-8ea8-${String(i).padStart(12, '0')}`, layoutClassList: ['a'] })),
        Array.from({ length: 60 }, (_v, i) => ({ id: `8b732909-0a06-46a2-8ea8-${String(i).padStart(12, '0')}`, layoutClassList: ['focus', 'full'] })),
      ),
    ],
    ['layout notice with Undo', layoutClassesNotice('U0MOD', s, [{ id: 's1', layoutClassList: ['a'] }], [{ id: 's1', layoutClassList: [] }])],
    ['session created', sessionCreatedNotice('U0MOD', { ...s, mediaMode: 'routed', archiveAlways: true, e2ee: true, boundToChannel: true })],
    [
      'mute-all notice with Undo',
      muteAllNotice(
        'U0MOD',
        s,
        Array.from({ length: 40 }, (_v, i) => `8b732909-0a06-46a2-8ea8-${String(i).padStart(12, '0')}`),
      ),
    ],
    ['mute-all undone', muteAllUndoneNotice('U0MOD', 'U0ADMIN', s, ['x1'])],
    ['kick confirm', kickPersonCard(s, 'e9f8c166-6c67-440d-994a-04fb6dfed007', [{ id: 'st-1', name: 'Bob', videoType: 'camera' }])],
    ['denied', deniedMessage({ what: '/mute-all', required: 'moderator', actual: 'viewer', admins: ['U1', 'U2'], uncheckedGroups: ['S1'] })],
    ['usage', usageMessage('/mute', { problem: EVIL, usage: ['/mute <stream-id>'], example: '/mute abc' })],
    [
      'audit list',
      auditListMessage(
        Array.from({ length: 50 }, (_v, i) => ({
          id: i,
          at: 1_700_000_000_000 + i,
          teamId: 'T',
          userId: 'U0MOD',
          channelId: 'C0OPS',
          projectName: 'prod',
          command: '/mute',
          target: `${EVIL} ${LONG}`,
          outcome: 'error' as const,
          error: EVIL,
        })),
      ),
    ],
    [
      'audit line',
      auditChannelMessage({ at: 1, teamId: 'T', userId: 'U1', channelId: 'C1', projectName: EVIL, command: '/mute', target: EVIL, outcome: 'denied' }),
    ],
    [
      'aliases',
      aliasesMessage(
        Array.from({ length: 100 }, (_v, i) => ({
          teamId: 'T',
          alias: `alias-${i}`,
          projectName: 'prod',
          sessionId: SESSION_ID,
          createdBy: 'U1',
          createdAt: 1,
        })),
      ),
    ],
    ['channel defaults', channelDefaultsMessage({ projectName: EVIL, projectSource: 'channel', sessionId: SESSION_ID })],
    ['channel bound', channelBoundNotice('U1', { projectName: 'prod' })],
    ['error', errorMessage(new VideoValidationError('data', `${EVIL} too long`), { operation: 'signal' })],
    ['text', textMessage(LONG)],
    ['app help', appHelp(COMMANDS)],
    ...COMMANDS.map((c): [string, unknown] => [`help ${c.command}`, commandHelp(c)]),
  ];
  it.each(messages)('%s', (_name, message) => {
    expect(messageProblems(message)).toEqual([]);
    expectNoInjection(message);
  });

  it('console, picker and kick card: within limits, user text escaped wherever it is mrkdwn', () => {
    const evil = Array.from({ length: 60 }, (_v, i) => stream(i, `${EVIL} ${LONG}`));
    const cards = [
      renderConsole({ session: s, streams: evil, mutes: { streams: [] }, now: 0 }),
      pickerMessage(s, `${EVIL} ${LONG}`, evil, 'kick'),
      kickPersonCard(s, 'c1', evil.slice(0, 3)),
    ];
    for (const card of cards) {
      expect(messageProblems(card)).toEqual([]);
      // Plain texts (buttons, dialog titles) show names as typed: Slack never parses them.
      const mrkdwn = JSON.stringify(card).match(/"type":"mrkdwn","text":"(?:[^"\\]|\\.)*"/g) ?? [];
      expect(mrkdwn.filter((m) => /<!channel>|<@U999|<https:\/\/evil/.test(m))).toEqual([]);
    }
  });

  it('shows at most MAX_CONSOLE_ROWS rows with buttons and names the others', () => {
    const message = renderConsole({ session: s, streams: Array.from({ length: MAX_CONSOLE_ROWS + 5 }, (_v, i) => stream(i)), mutes: { streams: [] }, now: 0 });
    const muteButtons = JSON.stringify(message.blocks).split(ACTION.muteStream).length - 1;
    expect(muteButtons).toBe(MAX_CONSOLE_ROWS);
    expect(visibleText(message)).toContain('*5 more:*');
  });

  it('puts the target in the buttons, readable back by the listeners', () => {
    const message = renderConsole({ session: s, streams: [stream(7, 'Ana')], mutes: { streams: [] }, now: 0 });
    const button = JSON.parse(JSON.stringify(message.blocks))
      .flatMap((b: { elements?: unknown[] }) => b.elements ?? [])
      .find((e: { action_id?: string }) => e.action_id === ACTION.muteStream);
    expect(decodeValue(StreamTargetSchema, button.value)).toEqual({ p: 'prod', s: SESSION_ID, a: 'standup', t: stream(7).id, n: 'Ana' });
  });

  it('the /kick card is the one question: a danger button without a dialog', () => {
    const danger = JSON.parse(JSON.stringify(kickPersonCard(s, 'c1', []).blocks))
      .flatMap((b: { elements?: unknown[] }) => b.elements ?? [])
      .find((e: { style?: string }) => e.style === 'danger');
    expect(danger.action_id).toBe(ACTION.kickPerson);
    expect(danger.confirm).toBeUndefined();
  });

  it('the mute-all notice carries an Undo that reads back the session, the streams spared and who muted', () => {
    const notice = muteAllNotice('U0MOD', s, ['x1']);
    const button = JSON.parse(JSON.stringify(notice.blocks))
      .flatMap((b: { elements?: unknown[] }) => b.elements ?? [])
      .find((e: { action_id?: string }) => e.action_id === ACTION.undoMuteAll);
    expect(button.confirm).toBeUndefined();
    expect(decodeValue(UndoMuteAllSchema, button.value)).toEqual({ p: 'prod', s: SESSION_ID, a: 'standup', x: ['x1'], m: 'U0MOD' });
  });
});

describe('modals, Home tab and options stay within limits', () => {
  it('layout classes modal (60 streams, long names) keeps within 100 blocks and puts the focused stream first', () => {
    const streams = Array.from({ length: 60 }, (_v, i) => stream(i, `${EVIL}${LONG}`));
    const view = layoutClassesModal(s, streams, 'C0OPS', streams[42]!.id);
    expect(modalProblems(view)).toEqual([]);
    expect(view.callback_id).toBe(CALLBACK.layoutClassesModal);
    expect((view.blocks[1] as { block_id: string }).block_id).toBe(`stream:${streams[42]!.id}`);
  });

  it('mute-everyone modal with and without an initial session', () => {
    expect(modalProblems(muteEveryoneModal())).toEqual([]);
    expect(modalProblems(muteEveryoneModal({ text: { type: 'plain_text', text: 'standup (prod)' }, value: encodeSessionOption('prod', SESSION_ID) }))).toEqual(
      [],
    );
  });

  it('info modal with a very long text', () => {
    expect(modalProblems(infoModal('A title longer than twenty-four characters', LONG))).toEqual([]);
  });

  it('home view with lots of data', () => {
    const view = homeView({
      role: 'moderator',
      commands: COMMANDS,
      aliases: Array.from({ length: 100 }, (_v, i) => ({
        teamId: 'T',
        alias: `a${i}`,
        projectName: EVIL,
        sessionId: SESSION_ID,
        createdBy: 'U',
        createdAt: 0,
      })),
      recent: Array.from({ length: 100 }, (_v, i) => ({ teamId: 'T', projectName: 'prod', sessionId: `${SESSION_ID}${i}`, usedBy: 'U', usedAt: i })),
      now: 1_000_000,
    });
    expect(homeProblems(view)).toEqual([]);
    expectNoInjection(view);
  });

  it('session options: aliases then recent sessions, filtered, de-duplicated, values within 150 characters', () => {
    const aliases = [
      { teamId: 'T', alias: 'standup', projectName: 'prod', sessionId: 's-1', createdBy: 'U', createdAt: 0 },
      { teamId: 'T', alias: 'townhall', projectName: 'prod', sessionId: 's-2', createdBy: 'U', createdAt: 0 },
    ];
    const recents = [
      { teamId: 'T', projectName: 'prod', sessionId: 's-1', usedBy: 'U', usedAt: 2 },
      { teamId: 'T', projectName: 'prod', sessionId: 's-3', usedBy: 'U', usedAt: 1 },
      { teamId: 'T', projectName: 'prod', sessionId: 'x'.repeat(200), usedBy: 'U', usedAt: 0 },
    ];
    const all = sessionOptions(aliases, recents, '', encodeSessionOption);
    expect(optionsProblems(all)).toEqual([]);
    expect(all.option_groups.map((g) => [g.label.text, g.options.map((o) => o.text.text)])).toEqual([
      ['Aliases', ['standup (prod)', 'townhall (prod)']],
      ['Used lately', ['standup (prod)', 's-3 (prod)']],
    ]);
    const filtered = sessionOptions(aliases, recents, 'town', encodeSessionOption);
    expect(filtered.option_groups.map((g) => g.options.map((o) => o.text.text))).toEqual([['townhall (prod)']]);
  });
});

describe('help and usage are generated from the grammars', () => {
  it('/video help lists every command', () => {
    const text = visibleText(appHelp(COMMANDS));
    for (const c of COMMANDS) expect(text).toContain(c.command);
    expect(text).toContain('(moderator)');
    expect(text).toContain('(admin)');
  });

  it('a command’s help shows its usage line, options, role and examples', () => {
    const text = renderedText(commandHelp(sessionCommand));
    expect(text).toContain('/session create [alias] [--relayed]');
    expect(text).toContain('--archive-resolution <WxH>');
    expect(text).toContain('(moderator)');
    expect(text).toContain('/session create standup --use');
  });

  it('a usage error says what was wrong, the usage line and a correct example', () => {
    const parsed = parseCommand(muteCommand, '');
    if (parsed.kind !== 'usage') throw new Error('expected a usage error');
    const text = renderedText(usageMessage('/mute', parsed.problem));
    expect(text).toContain('<who> is missing');
    expect(text).toContain('/mute <who> [session] [--project <name>]');
    expect(text).toContain('/mute Bob');
    expect(text).toContain('/mute help');
  });
});

describe('errors become one sentence with a next step', () => {
  const ctx = { project: 'prod', sessionId: 'sess-1' };
  const cases: [string, unknown, Parameters<typeof describeError>[1], RegExp][] = [
    [
      '409 relayed',
      new VideoConflictError('x', { status: 409, raw: '{"code":409,"message":"Only routed sessions can be archived"}' }),
      { ...ctx, operation: 'create-session' },
      /this session is relayed; recording, broadcast, SIP and audio need a routed session/i,
    ],
    [
      '409 other',
      new VideoConflictError('x', { status: 409, raw: '{"message":"already recording"}' }),
      { ...ctx, operation: 'mute-all' },
      /current state .*already recording; nothing was changed/,
    ],
    [
      '404 connection',
      new VideoNotFoundError('x', { status: 404 }),
      { ...ctx, operation: 'disconnect', connectionId: 'c-9' },
      /Connection `c-9` is not connected to session `sess-1`/,
    ],
    [
      '404 stream',
      new VideoNotFoundError('x', { status: 404 }),
      { ...ctx, operation: 'mute-stream', streamId: 'st-9' },
      /Stream `st-9` was not found .*`\/streams` lists/,
    ],
    ['404 session', new VideoNotFoundError('x', { status: 404 }), { ...ctx, operation: 'mute-all' }, /Session `sess-1` was not found in project \*prod\*/],
    [
      '403',
      new VideoAuthError('x', { status: 403 }),
      { ...ctx, operation: 'mute-all' },
      /refused the credentials of project \*prod\* .*suspended.*Ask an admin/,
    ],
    ['timeout', new VideoTimeoutError('x'), { ...ctx, operation: 'mute-all' }, /did not answer in time.*try again/i],
    ['connection', new VideoConnectionError('x'), { ...ctx, operation: 'mute-all' }, /could not be reached; nothing was changed/],
    [
      '500',
      new VideoApiError('x', { status: 500 }),
      { ...ctx, operation: 'mute-all' },
      /did not answer properly \(error 500\); nothing was changed. Try again/,
    ],
    ['429', new VideoRateLimitError('x', { status: 429, retryAfterMs: 2500 }), { ...ctx, operation: 'mute-all' }, /Try again in 3 s/],
    ['413', new VideoApiError('x', { status: 413 }), { ...ctx, operation: 'signal' }, /too large/],
    [
      '400',
      new VideoApiError('x', { status: 400, raw: '{"message":"bad <things>"}' }),
      { ...ctx, operation: 'signal' },
      /invalid: bad &lt;things&gt;; nothing was changed/,
    ],
    [
      'validation',
      new VideoValidationError('type', 'must be at most 128 bytes'),
      { ...ctx, operation: 'signal' },
      /type: must be at most 128 bytes — nothing was sent/,
    ],
    ['unknown', new Error('boom at /secret/path'), { ...ctx, operation: 'signal' }, /Something went wrong on our side/],
  ];
  it.each(cases)('%s', (_name, error, context, expected) => {
    const sentence = describeError(error, context);
    expect(sentence).toMatch(expected);
    expect(sentence).not.toMatch(/\bat \w+ \(|\{"|v2\/project/);
  });
});

describe('mrkdwn helpers', () => {
  it('clamps without leaving half an entity, mention or code span', () => {
    expect(clampMrkdwn('abc &amp; def', 7)).toBe('abc …');
    expect(clampMrkdwn('hi <@U123456> there', 8)).toBe('hi …');
    expect(clampMrkdwn('see `abcdef`', 9)).toBe('see …');
  });
  it('keeps escapes in notification text', () => {
    expect(stripMrkdwn('*a* &lt;!channel&gt; <https://x.example|label>')).toBe('a &lt;!channel&gt; label');
  });
});
