/**
 * The recording views on their own: cards in every status (buttons, escaping, Block Kit limits),
 * the snapshot redraw, lists, the stop choice, the delete and download answers, notices, both
 * forms, and the recording error sentences.
 */
import {
  VideoApiError,
  VideoAuthError,
  VideoConflictError,
  VideoNotFoundError,
  VideoRateLimitError,
  VideoTimeoutError,
  VideoValidationError,
} from '../../src/api';
import { recordCommand } from '../../src/commands/record';
import { parseCommand } from '../../src/commands/grammar';
import { type ArchiveCardData } from '../../src/kinds/recording';
import { LIST_PAGE_SIZE, archiveListMessage, deleteConfirmCard, downloadMessage, notDownloadableMessage, stopChoiceMessage } from '../../src/views/archive';
import { type ArchiveErrorContext, ROUTED_ONLY, archiveStatusMessage, describeArchiveError } from '../../src/views/archive-errors';
import { EMPTY_START_FORM, recordStartModal } from '../../src/views/archive-modal';
import { recordingDeletedNotice, recordingLayoutNotice, recordingStoppedNotice, recordingStreamNotice } from '../../src/views/archive-notices';
import { commandHelp } from '../../src/views/help';
import { RECORD_ACTION, RECORD_BLOCK } from '../../src/views/ids';
import { displayHost, storageClearConfirmCard, storageModal, storageSetNotice } from '../../src/views/storage';
import { messageProblems, modalProblems } from '../harness/block-kit';
import { findElements, renderedText, visibleText } from '../harness/text';

const EVIL = '<!channel> & <@U999|boss> <https://evil.example|click> *bold*';
const LONG = 'x'.repeat(5000);
const SESSION_ID = `2_MX4${'a'.repeat(90)}`;
const ID = 'b40ef09b-3811-4726-b508-e41a0f96c68f';

function recording(overrides: Partial<ArchiveCardData> = {}): ArchiveCardData {
  return {
    id: ID,
    status: 'started',
    sessionId: SESSION_ID,
    createdAt: Date.parse('2026-11-02T17:00:00Z'),
    duration: 0,
    size: 0,
    name: 'Weekly review',
    reason: null,
    outputMode: 'composed',
    resolution: '1280x720',
    streamMode: 'auto',
    hasAudio: true,
    hasVideo: true,
    multiArchiveTag: null,
    ...overrides,
  };
}

const buttons = (payload: unknown) => ({
  stop: findElements(payload, RECORD_ACTION.stop).length,
  download: findElements(payload, RECORD_ACTION.download).length,
  delete: findElements(payload, RECORD_ACTION.delete).length,
});

function expectNoInjection(payload: unknown): void {
  const text = visibleText(payload);
  expect(text).not.toContain('<!channel>');
  expect(text).not.toContain('<@U999');
  expect(text).not.toContain('<https://evil');
}

describe('lists and answers', () => {
  it('a full page with long names stays within limits and offers More with the next offset', () => {
    const items = Array.from({ length: LIST_PAGE_SIZE }, (_v, i) =>
      recording({ id: `${ID.slice(0, -2)}${String(i).padStart(2, '0')}`, name: `${EVIL} ${LONG}`, status: i % 2 === 0 ? 'started' : 'available', size: 1000 }),
    );
    const page = archiveListMessage(items, { projectName: 'prod', offset: 20, total: 57 });
    expect(messageProblems(page)).toEqual([]);
    expectNoInjection(page);
    expect(renderedText(page)).toContain('21–40 of 57');
    expect(JSON.parse(findElements(page, RECORD_ACTION.more)[0]!.value as string)).toEqual({ p: 'prod', o: 40 });
    expect(buttons(page)).toEqual({ stop: 10, download: 10, delete: 0 });
  });

  it('an empty list says how to start one; past the end says no more', () => {
    expect(renderedText(archiveListMessage([], { projectName: 'prod', sessionId: SESSION_ID, alias: 'standup', offset: 0, total: 0 }))).toContain(
      'No recordings of session `standup` yet. Start one with `/record start`.',
    );
    expect(renderedText(archiveListMessage([], { projectName: 'prod', offset: 40, total: 40 }))).toContain('No more recordings in project *prod*.');
  });

  it('the stop choice: one question, one Stop per recording (at most 40), Cancel', () => {
    const many = Array.from({ length: 45 }, (_v, i) => recording({ multiArchiveTag: `t${i}` }));
    const choice = stopChoiceMessage(many, { projectName: 'prod', sessionId: SESSION_ID });
    expect(messageProblems(choice)).toEqual([]);
    expect(buttons(choice).stop).toBe(40);
    expect(renderedText(stopChoiceMessage([recording()], { projectName: 'prod', sessionId: SESSION_ID, alias: 'standup' }))).toContain(
      'Stop the recording of session `standup`?',
    );
  });

  it('delete confirmation: what goes, behind a danger confirm; uploaded files stay in the upload target', () => {
    const available = deleteConfirmCard(recording({ status: 'available', size: 2_000_000, name: EVIL }), { projectName: 'prod' });
    expect(messageProblems(available)).toEqual([]);
    expectNoInjection(available);
    expect(renderedText(available)).toContain('Its file is removed from the video service for good.');
    expect(renderedText(deleteConfirmCard(recording({ status: 'uploaded' }), { projectName: 'prod' }))).toContain('the file in your upload target stays');
  });

  it('download answer: a link that cannot be cut short, and when it stops working', () => {
    const message = downloadMessage(
      recording({ status: 'available', size: 2048, duration: 65 }),
      'https://files.example/a.mp4?Expires=1&Signature=a|b>c',
      Date.parse('2026-11-02T17:10:00Z'),
    );
    expect(messageProblems(message)).toEqual([]);
    const raw = JSON.stringify(message);
    expect(raw).toContain('<https://files.example/a.mp4?Expires=1&amp;Signature=a%7Cb%3Ec|Download Weekly review>');
    expect(renderedText(message)).toContain('The link works for 10 minutes');
    expect(renderedText(notDownloadableMessage(recording({ status: 'uploaded' })))).toContain('was uploaded to the project’s upload target');
    expect(renderedText(notDownloadableMessage(recording({ status: 'stopped' })))).toContain('is not ready yet');
  });

  it('notices name who did what, escape names, stay within limits', () => {
    const a = { projectName: 'prod', archiveId: ID, name: EVIL, sessionId: SESSION_ID };
    const notices = [
      recordingStoppedNotice('U0MOD', a),
      recordingDeletedNotice('U0ADMIN', a, true),
      recordingLayoutNotice('U0MOD', a, { type: 'bestFit', screenshareType: 'pip' }),
      recordingStreamNotice('U0MOD', a, { streamId: 's1', action: 'add', hasVideo: false }),
      recordingStreamNotice('U0MOD', a, { streamId: 's1', action: 'remove' }),
    ];
    for (const n of notices) {
      expect(messageProblems(n)).toEqual([]);
      expectNoInjection(n);
    }
    expect(renderedText(notices[2])).toContain('to `bestFit`, `pip` while a screen is shared');
    expect(renderedText(notices[3])).toContain('added stream `s1` (audio only)');
    expect(renderedText(notices[1])).toContain('The copy in the upload target is not touched.');
  });
});

describe('forms', () => {
  it.each([
    ['default', EMPTY_START_FORM, [RECORD_BLOCK.resolution, RECORD_BLOCK.layoutType, RECORD_BLOCK.screenshare], [RECORD_BLOCK.stylesheet]],
    [
      'individual',
      { ...EMPTY_START_FORM, outputMode: 'individual' as const },
      [],
      [RECORD_BLOCK.resolution, RECORD_BLOCK.layoutType, RECORD_BLOCK.screenshare, RECORD_BLOCK.stylesheet],
    ],
    ['custom', { ...EMPTY_START_FORM, layoutType: 'custom' as const, stylesheet: 'stream {}' }, [RECORD_BLOCK.stylesheet], [RECORD_BLOCK.screenshare]],
    ['pip', { ...EMPTY_START_FORM, layoutType: 'pip' as const }, [RECORD_BLOCK.layoutType], [RECORD_BLOCK.screenshare, RECORD_BLOCK.stylesheet]],
  ])('start form (%s) shows only fields that combine', (_name, form, shown, hidden) => {
    const view = recordStartModal(form, { c: 'C0OPS' }, ':warning: A problem');
    expect(modalProblems(view)).toEqual([]);
    const ids = view.blocks.map((b) => b.block_id);
    for (const id of shown) expect(ids).toContain(id);
    for (const id of hidden) expect(ids).not.toContain(id);
    expect(ids[0]).toBe(RECORD_BLOCK.problem);
  });

  it('start form keeps what was filled in (initial values and options Slack accepts)', () => {
    const view = recordStartModal(
      { ...EMPTY_START_FORM, name: 'Board', resolution: '1920x1080', screenshare: 'pip', streamMode: 'manual', audio: false, tag: 'b' },
      {},
    );
    expect(modalProblems(view)).toEqual([]);
    const raw = JSON.stringify(view);
    expect(raw).toContain('"initial_value":"Board"');
    expect(raw).toContain('"initial_value":"b"');
    expect(renderedText(view)).toContain('The recording’s card is sent to you.');
  });

  it('storage form: s3 and blobstore fields, never a value in a key field, within limits', () => {
    const s3 = storageModal({ type: 's3', fallback: 'none', bucket: 'b', endpoint: 'https://e.example' }, { p: 'prod', c: 'C0OPS' });
    const blob = storageModal({ type: 'blobstore', fallback: 'service', container: 'c' }, { p: EVIL }, ':warning: refused');
    for (const view of [s3, blob]) expect(modalProblems(view)).toEqual([]);
    const keyBlocks = [RECORD_BLOCK.accessKey, RECORD_BLOCK.secretKey, RECORD_BLOCK.accountKey];
    for (const view of [s3, blob]) {
      for (const block of view.blocks.filter((b) => keyBlocks.includes(b.block_id as never))) {
        expect(JSON.stringify(block)).not.toContain('initial_value');
      }
    }
    expectNoInjection(blob);
  });

  it('storage notice and confirmation show where files go, never credentials in an endpoint', () => {
    expect(displayHost('https://user:pa55@s3.example.com/')).toBe('https://s3.example.com');
    const notice = storageSetNotice('U0ADMIN', 'prod', { type: 's3', place: 'rec', host: 'https://user:pa55@s3.example.com', fallback: 'none' });
    expect(messageProblems(notice)).toEqual([]);
    expect(JSON.stringify(notice)).not.toContain('pa55');
    expect(messageProblems(storageClearConfirmCard(EVIL))).toEqual([]);
    expectNoInjection(storageClearConfirmCard(EVIL));
  });

  it('help for /record fits one message', () => {
    const help = commandHelp(recordCommand);
    expect(messageProblems(help)).toEqual([]);
    expect(JSON.stringify(help)).not.toContain('…');
  });
});

describe('recording error sentences', () => {
  const base: ArchiveErrorContext = { operation: 'start', project: 'prod', sessionId: 'sess-1', archiveId: ID, streamId: 'st-1' };
  const conflict = (message?: string) => new VideoConflictError('x', { status: 409, ...(message ? { raw: JSON.stringify({ code: 409, message }) } : {}) });
  it.each<[string, unknown, Partial<ArchiveErrorContext>, RegExp | string]>([
    ['start 409 relayed', conflict('Session is not using the media router'), {}, ROUTED_ONLY],
    ['start 409 no body, nothing running', conflict(), { sessionBusy: false }, ROUTED_ONLY],
    ['start 409 no body, already recorded', conflict(), { sessionBusy: true }, /is already being recorded\. .*--tag second/],
    [
      'start 409 tag taken',
      conflict("An archive with multiArchiveTag 'a' is already recording"),
      { tag: 'a' },
      /already uses the tag `a`; pick a different `--tag`/,
    ],
    [
      'start 409 automatic',
      conflict('A multiArchiveTag is required to start an archive in an automatically archived session'),
      {},
      /is recorded automatically; a recording started by hand needs its own tag/,
    ],
    ['start 404', new VideoNotFoundError('x', { status: 404 }), {}, /Nobody is connected to session `sess-1`/],
    ['start 400 no clients', new VideoApiError('x', { status: 400, raw: '{"message":"No clients connected"}' }), {}, /Nobody is connected/],
    ['stop 409 stopped', conflict(), { operation: 'stop', status: 'stopped' }, /is not being recorded \(it is \*stopped\*/],
    ['stop 409 paused', conflict(), { operation: 'stop', status: 'paused' }, /is \*paused\* \(nobody is publishing\)/],
    ['stop 404', new VideoNotFoundError('x', { status: 404 }), { operation: 'stop' }, /There is no recording `b40ef09b/],
    ['read 400', new VideoApiError('x', { status: 400, raw: '{"message":"Invalid archive ID"}' }), { operation: 'read' }, /There is no recording/],
    ['delete 409 started', conflict(), { operation: 'delete', status: 'started' }, /cannot be deleted while it is \*started\*.*stop it first/],
    ['delete 409 stopped', conflict(), { operation: 'delete', status: 'stopped' }, /still being processed/],
    ['delete 409 expired', conflict(), { operation: 'delete', status: 'expired' }, /there is no file left to delete/],
    [
      'layout 400 classes',
      new VideoApiError('x', { status: 400, raw: '{"message":"Invalid layout: type \'pip\' needs layout classes"}' }),
      { operation: 'layout' },
      /Edit layout classes/,
    ],
    [
      'layout 400 individual',
      new VideoApiError('x', { status: 400, raw: '{"message":"Layout applies only to composed archives"}' }),
      { operation: 'layout' },
      /layouts apply only to composed recordings/,
    ],
    [
      'add 400 auto',
      new VideoApiError('x', { status: 400, raw: '{"message":"Stream selection needs streamMode \'manual\'"}' }),
      { operation: 'add-stream' },
      /stream mode \*auto\*/,
    ],
    [
      'add 404 stream',
      new VideoNotFoundError('x', { status: 404, raw: '{"message":"Stream st-1 not found"}' }),
      { operation: 'add-stream' },
      /Stream `st-1` is not publishing/,
    ],
    [
      'remove 404',
      new VideoNotFoundError('x', { status: 404, raw: '{"message":"Stream st-1 is not selected"}' }),
      { operation: 'remove-stream' },
      /is not part of recording/,
    ],
    ['clear 404', new VideoNotFoundError('x', { status: 404 }), { operation: 'clear-storage' }, /Project \*prod\* has no upload target/],
    [
      '403',
      new VideoAuthError('x', { status: 403 }),
      {},
      /refused the credentials of project \*prod\* \(wrong API key or secret, or the project is suspended\)/,
    ],
    ['429', new VideoRateLimitError('x', { status: 429, retryAfterMs: 2500 }), {}, /Try again in 3 s/],
    ['timeout', new VideoTimeoutError('x'), {}, /`\/record list`/],
    ['500', new VideoApiError('x', { status: 500 }), {}, /error 500/],
    [
      'validation',
      new VideoValidationError('name', 'must be at most 255 characters (got 300). Example: "Quarterly review"'),
      {},
      /^name: must be at most 255 characters \(got 300\) — nothing was sent/,
    ],
    ['other', new Error('boom'), {}, /Something went wrong on our side/],
  ])('%s', (_name, error, extra, expected) => {
    const text = describeArchiveError(error, { ...base, ...extra });
    if (typeof expected === 'string') expect(text).toBe(expected);
    else expect(text).toMatch(expected);
    expect(text).not.toMatch(/\/v2\/project|"code"/);
  });

  it('escapes what the service said', () => {
    const text = describeArchiveError(new VideoApiError('x', { status: 400, raw: '{"message":"bad <!channel>"}' }), { ...base, operation: 'set-storage' });
    expect(text).toContain('bad &lt;!channel&gt;');
  });

  it('the status message before trying', () => {
    expect(renderedText(archiveStatusMessage({ ...base, operation: 'delete', status: 'paused' }))).toContain('cannot be deleted while it is *paused*');
  });
});

describe('grammar', () => {
  it.each([
    ['start', {}],
    ['start standup "Weekly review"', { session: 'standup', name: 'Weekly review' }],
    ['start "Weekly review"', { name: 'Weekly review' }],
    ['start --layout Best-Fit --screenshare VERTICAL', { layout: 'bestFit', screenshare: 'verticalPresentation' }],
    ['start --stylesheet "stream { }"', { stylesheet: 'stream { }' }],
    ['stop', {}],
    ['list --all', { all: true }],
    ['storage clear', { action: 'clear' }],
  ])('%s', (text, expected) => {
    const parsed = parseCommand(recordCommand, text);
    expect(parsed.kind).toBe('ok');
    const args = (parsed as { args: Record<string, unknown> }).args;
    expect(Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined))).toEqual(expected);
  });

  it('storage takes only `clear`', () => {
    const parsed = parseCommand(recordCommand, 'storage wipe');
    expect(parsed.kind).toBe('usage');
  });
});
