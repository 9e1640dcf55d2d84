/** Broadcast views: the card, list, stop cards, notices, the start form — Block Kit limits, escaping, and no stream key anywhere. */
import type { Broadcast } from '../../src/api';
import { VideoValidationError } from '../../src/api';
import { readStartForm, blockForField } from '../../src/actions/broadcast-form';
import { broadcastCommand } from '../../src/commands/broadcast';
import { commandHelp } from '../../src/views/help';
import { encodeSessionOption } from '../../src/interaction/session-ref';
import { BroadcastTargetSchema, broadcastCard, formatBitrate } from '../../src/kinds/broadcast';
import {
  MAX_BROADCASTS_IN_LIST,
  broadcastLayoutNotice,
  broadcastListMessage,
  broadcastStoppedNotice,
  broadcastStreamNotice,
  outputsSummary,
  stopChoiceCard,
  stopConfirmCard,
} from '../../src/views/broadcast';
import { describeBroadcastError, validationSentence } from '../../src/views/broadcast-errors';
import { MAX_RTMP_ROWS, broadcastStartModal, parseStartMetadata } from '../../src/views/broadcast-modal';
import { ACTION, BROADCAST_BLOCK, CALLBACK } from '../../src/views/ids';
import { decodeValue } from '../../src/views/values';
import { messageProblems, modalProblems } from '../harness/block-kit';
import { findElements, renderedText, visibleText } from '../harness/text';

const KEY = 'sk_live_SUPERSECRET_4242';
const EVIL = '<!channel> & <@U999|boss> <https://evil.example|click> *bold*';
const T0 = Date.parse('2026-11-02T17:00:00Z');
const ctx = { projectName: 'prod', alias: 'standup', startedBy: 'U0MOD' };

function broadcast(overrides: Partial<Broadcast> = {}): Broadcast {
  return {
    id: '6706b658-2eba-42cc-b4d2-7d01a104d182',
    sessionId: `2_MX4${'a'.repeat(40)}`,
    projectId: '123',
    createdAt: T0,
    updatedAt: T0,
    resolution: '1280x720',
    status: 'started',
    streamMode: 'auto',
    streams: [],
    hasAudio: true,
    hasVideo: true,
    maxDuration: 7200,
    maxBitrate: undefined,
    multiBroadcastTag: undefined,
    broadcastUrls: {
      hls: 'https://cdn.example.com/hls/abc/playlist.m3u8?DVR',
      hlsStatus: 'connecting',
      rtmp: [
        { id: 'yt', serverUrl: 'rtmps://a.rtmp.youtube.com:443/live2', streamName: KEY, status: 'connecting' },
        { id: 'own', serverUrl: 'rtmp://user:pw@media.example.org:1935/app', streamName: `${KEY}-2`, status: 'offline' },
      ],
    },
    settings: undefined,
    ...overrides,
  } as Broadcast;
}

function fiveOutputs(): Broadcast['broadcastUrls'] {
  return {
    hls: 'https://cdn.example.com/x.m3u8',
    hlsStatus: 'live',
    rtmp: Array.from({ length: 5 }, (_v, i) => ({
      id: `out-${'x'.repeat(60)}-${i}`,
      serverUrl: `rtmps://${'h'.repeat(200)}.example.com:443/app`,
      streamName: `${KEY}${i}`,
      status: 'live' as const,
    })),
  };
}

function expectNoKey(payload: unknown): void {
  expect(JSON.stringify(payload)).not.toContain(KEY);
  expect(JSON.stringify(payload)).not.toContain('SUPERSECRET');
}

describe('broadcastCard', () => {
  it('shows status, the HLS URL with its delay and status, each output by id, host and status, resolution, duration, who started it, and Stop', () => {
    const card = broadcastCard(broadcast(), ctx);
    expect(messageProblems(card)).toEqual([]);
    const text = renderedText(card);
    expect(text).toContain('Live broadcast');
    expect(text).toContain('<@U0MOD> started a live broadcast of session `standup`');
    expect(text).toContain('https://cdn.example.com/hls/abc/playlist.m3u8?DVR');
    expect(text).toContain('Usable about 20 s after start');
    expect(text).toMatch(/\*HLS\* :hourglass_flowing_sand: connecting · DVR/);
    expect(text).toContain('`yt` a.rtmp.youtube.com — :hourglass_flowing_sand: connecting · _key hidden_');
    expect(text).toContain('`own` media.example.org — :red_circle: offline');
    expect(text).toContain('1280x720');
    expect(text).toContain('2 h');
    expect(text).toContain('by <@U0MOD>');
    const [stop] = findElements(card, ACTION.broadcastStop);
    expect(stop).toEqual(expect.objectContaining({ style: 'danger', confirm: expect.objectContaining({ style: 'danger' }) }));
    expect(decodeValue(BroadcastTargetSchema, stop!.value as string)).toEqual({
      p: 'prod',
      s: broadcast().sessionId,
      a: 'standup',
      b: broadcast().id,
      u: 'U0MOD',
    });
    expectNoKey(card);
    // Credentials in a server URL are not shown either.
    expect(JSON.stringify(card)).not.toContain('user:pw');
  });

  it('says so once live and drops the delay note', () => {
    const card = broadcastCard(broadcast({ broadcastUrls: { ...broadcast().broadcastUrls!, hlsStatus: 'live' } }), ctx);
    expect(renderedText(card)).toContain(':large_green_circle: live');
    expect(renderedText(card)).not.toContain('Usable about 20 s');
  });

  it('names low latency, manual mode, audio only, tag and bitrate', () => {
    const card = broadcastCard(
      broadcast({
        streamMode: 'manual',
        hasVideo: false,
        multiBroadcastTag: 'main',
        maxBitrate: 2_500_000,
        broadcastUrls: { hls: 'https://x/y.m3u8', hlsStatus: 'ready', rtmp: [] },
      }),
      { ...ctx, hls: { lowLatency: true } },
    );
    const text = renderedText(card);
    expect(text).toContain('low latency');
    expect(text).toContain('chosen by hand (0 selected)');
    expect(text).toContain('audio only');
    expect(text).toContain('`main`');
    expect(text).toContain('2.5 Mbit/s');
    expect(text).not.toContain('RTMP output');
  });

  it('a stopped broadcast: no Stop button, outputs closed, who stopped it', () => {
    const card = broadcastCard(broadcast({ status: 'stopped', broadcastUrls: null }), { ...ctx, stoppedBy: 'U0OTHER' });
    expect(messageProblems(card)).toEqual([]);
    expect(findElements(card, ACTION.broadcastStop)).toEqual([]);
    const text = renderedText(card);
    expect(text).toContain('Broadcast stopped');
    expect(text).toContain('stopped by <@U0OTHER>');
    expect(text).toContain('Its outputs are closed.');
  });

  it('stays within limits with five long outputs, and escapes what the service and users named', () => {
    const card = broadcastCard(broadcast({ broadcastUrls: fiveOutputs(), multiBroadcastTag: EVIL }), {
      projectName: EVIL,
      alias: EVIL,
      startedBy: 'not-a-user <!here>',
    });
    expect(messageProblems(card)).toEqual([]);
    const text = visibleText(card);
    expect(text).not.toContain('<!channel>');
    expect(text).not.toContain('<!here>');
    expect(text).not.toContain('<@U999');
    expectNoKey(card);
  });

  it('can leave the Stop button out (read-only copies)', () => {
    expect(findElements(broadcastCard(broadcast(), { ...ctx, stopButton: false }), ACTION.broadcastStop)).toEqual([]);
  });
});

describe('list, stop cards and notices', () => {
  it('lists up to 20 broadcasts with a Stop button each, and says how many more', () => {
    const many = Array.from({ length: 25 }, (_v, i) => broadcast({ id: `6706b658-2eba-42cc-b4d2-${String(i).padStart(12, '0')}` }));
    const message = broadcastListMessage('prod', many, { total: 25, aliases: new Map([[many[0]!.sessionId, 'standup']]) });
    expect(messageProblems(message)).toEqual([]);
    expect(findElements(message, ACTION.broadcastStop)).toHaveLength(MAX_BROADCASTS_IN_LIST);
    expect(renderedText(message)).toContain('25 broadcasts running in project *prod*');
    expect(renderedText(message)).toContain('and 5 more not shown');
    expect(renderedText(message)).toContain('HLS connecting · 2 RTMP (1 connecting, 1 offline)');
    expectNoKey(message);
  });

  it('says when nothing runs', () => {
    const message = broadcastListMessage('prod', [], { session: { projectName: 'prod', sessionId: 's1', alias: 'standup' } });
    expect(renderedText(message)).toContain('No broadcast is running in session `standup`');
  });

  it('the stop and choice cards are the one question: their Stop buttons act without a dialog, with Cancel beside', () => {
    const one = stopConfirmCard(broadcast(), ctx);
    expect(messageProblems(one)).toEqual([]);
    expect(findElements(one, ACTION.broadcastStop)[0]).not.toHaveProperty('confirm');
    expect(findElements(one, ACTION.cancel)).toHaveLength(1);
    const choice = stopChoiceCard([broadcast(), broadcast({ id: 'b2', multiBroadcastTag: 'second' })], { ...ctx, sessionId: broadcast().sessionId });
    expect(messageProblems(choice)).toEqual([]);
    expect(findElements(choice, ACTION.broadcastStop)).toHaveLength(2);
    for (const stop of findElements(choice, ACTION.broadcastStop)) expect(stop).not.toHaveProperty('confirm');
    expect(renderedText(choice)).toContain('runs 2 broadcasts. Which one should stop?');
    expectNoKey([one, choice]);
  });

  it('notices name who did what', () => {
    const b = broadcast();
    const notices = [
      broadcastStoppedNotice('U0MOD', b, ctx),
      broadcastLayoutNotice('U0MOD', b, ctx, { type: 'bestFit', screenshareType: 'pip' }),
      broadcastStreamNotice('U0MOD', 'added', b, ctx, 'st-1', 'audio only'),
      broadcastStreamNotice('U0MOD', 'removed', b, ctx, 'st-1'),
    ];
    for (const n of notices) expect(messageProblems(n)).toEqual([]);
    expect(renderedText(notices[0])).toContain(`<@U0MOD> stopped broadcast \`${b.id}\` of session \`standup\``);
    expect(renderedText(notices[1])).toContain('to *bestFit* (while someone shares a screen: *pip*)');
    expect(renderedText(notices[2])).toContain('added stream `st-1` to broadcast');
    expect(renderedText(notices[2])).toContain('(audio only)');
    expect(renderedText(notices[3])).toContain('removed stream `st-1` from broadcast');
  });

  it('summaries and bitrates', () => {
    expect(outputsSummary(broadcast({ broadcastUrls: null }))).toBe('no outputs');
    expect(formatBitrate(800_000)).toBe('800 kbit/s');
    expect(formatBitrate(6_000_000)).toBe('6 Mbit/s');
  });
});

describe('help', () => {
  it('/broadcast help fits in one message without cutting any form short', () => {
    const help = commandHelp(broadcastCommand);
    expect(messageProblems(help)).toEqual([]);
    for (const block of help.blocks) {
      if (block.type === 'section' && block.text) expect(block.text.text.endsWith('…')).toBe(false);
    }
    expect(renderedText(help)).toContain('/broadcast start standup --rtmp yt=rtmps://a.rtmp.youtube.com:443/live2/STREAM-KEY --hls --dvr');
  });
});

describe('errors', () => {
  it('validation sentences never quote the value', () => {
    const err = new VideoValidationError('outputs.rtmp[1].serverUrl', `must include the port (got "rtmp://host/app/${KEY}")`);
    expect(validationSentence(err)).toBe('RTMP output 2: the server URL must be rtmp:// or rtmps:// with a port, e.g. rtmps://live.example.com:443/app');
    expect(describeBroadcastError(err, { operation: 'start', project: 'prod' })).not.toContain(KEY);
  });
});

describe('start form', () => {
  const session = encodeSessionOption('prod', '2_MX4session');
  const picked = { [BROADCAST_BLOCK.session]: { [ACTION.sessionPicker]: { type: 'external_select', selected_option: { value: session } } } };
  const value = (v: string) => ({ [ACTION.broadcastInput]: { type: 'plain_text_input', value: v } });
  const choice = (v: string) => ({ [ACTION.broadcastInput]: { type: 'static_select', selected_option: { value: v } } });
  const known = (name: string) => name === 'prod';

  it('builds within Block Kit limits, one RTMP row at first and five at most', () => {
    const first = broadcastStartModal({ metadata: { r: 1, c: 'C0OPS' } });
    expect(modalProblems(first)).toEqual([]);
    expect(first.callback_id).toBe(CALLBACK.broadcastStartModal);
    expect(findElements(first, ACTION.broadcastAddOutput)).toHaveLength(1);
    expect(parseStartMetadata(first.private_metadata)).toEqual({ r: 1, c: 'C0OPS' });
    const full = broadcastStartModal({ metadata: { r: MAX_RTMP_ROWS } });
    expect(modalProblems(full)).toEqual([]);
    expect(findElements(full, ACTION.broadcastAddOutput)).toHaveLength(0);
    expect((full.blocks as { block_id?: string }[]).filter((b) => b.block_id?.startsWith(BROADCAST_BLOCK.rtmpKeyPrefix))).toHaveLength(5);
    expect(parseStartMetadata('{"r":9}')).toBeUndefined();
    expect(parseStartMetadata('nope')).toBeUndefined();
  });

  it('reads a complete form into start options', () => {
    const result = readStartForm(
      {
        ...picked,
        [BROADCAST_BLOCK.hls]: choice('low-latency'),
        [`${BROADCAST_BLOCK.rtmpUrlPrefix}1`]: value('rtmps://live.example.com:443/app'),
        [`${BROADCAST_BLOCK.rtmpKeyPrefix}1`]: value(KEY),
        [`${BROADCAST_BLOCK.rtmpIdPrefix}1`]: value('yt'),
        [BROADCAST_BLOCK.resolution]: choice('1280x720'),
        [BROADCAST_BLOCK.layout]: choice('bestFit'),
        [BROADCAST_BLOCK.screenshare]: choice('pip'),
        [BROADCAST_BLOCK.maxDuration]: value('90'),
        [BROADCAST_BLOCK.maxBitrate]: value('2500'),
        [BROADCAST_BLOCK.streamMode]: choice('manual'),
        [BROADCAST_BLOCK.tag]: value('main'),
        [BROADCAST_BLOCK.media]: { [ACTION.broadcastInput]: { type: 'checkboxes', selected_options: [{ value: 'audio' }] } },
      },
      1,
      known,
    );
    expect(result).toEqual({
      ok: true,
      form: {
        session: { projectName: 'prod', sessionId: '2_MX4session' },
        rows: [1],
        settings: {
          outputs: { hls: { lowLatency: true }, rtmp: [{ id: 'yt', serverUrl: 'rtmps://live.example.com:443/app', streamName: KEY }] },
          resolution: '1280x720',
          layout: { type: 'bestFit', screenshareType: 'pip' },
          maxDuration: 5400,
          maxBitrate: 2_500_000,
          streamMode: 'manual',
          multiBroadcastTag: 'main',
          hasVideo: false,
        },
      },
    });
  });

  it('puts each problem on its field, never quoting a stream key', () => {
    const result = readStartForm(
      {
        [BROADCAST_BLOCK.hls]: choice('off'),
        [`${BROADCAST_BLOCK.rtmpUrlPrefix}1`]: value('rtmp://host/app'),
        [`${BROADCAST_BLOCK.rtmpKeyPrefix}1`]: value(KEY),
        [`${BROADCAST_BLOCK.rtmpUrlPrefix}2`]: value('rtmps://b.example.com:443/app'),
        [`${BROADCAST_BLOCK.rtmpIdPrefix}2`]: value('dup'),
        [`${BROADCAST_BLOCK.rtmpUrlPrefix}3`]: value('rtmps://c.example.com:443/app'),
        [`${BROADCAST_BLOCK.rtmpKeyPrefix}3`]: value('k3'),
        [`${BROADCAST_BLOCK.rtmpIdPrefix}3`]: value('dup'),
        [`${BROADCAST_BLOCK.rtmpUrlPrefix}4`]: value('rtmps://d.example.com:443/app'),
        [`${BROADCAST_BLOCK.rtmpKeyPrefix}4`]: value('k4'),
        [`${BROADCAST_BLOCK.rtmpIdPrefix}4`]: value('dup'),
        [BROADCAST_BLOCK.layout]: choice('pip'),
        [BROADCAST_BLOCK.stylesheet]: value('stream {}'),
        [BROADCAST_BLOCK.media]: { [ACTION.broadcastInput]: { type: 'checkboxes', selected_options: [] } },
      },
      4,
      known,
    );
    expect(result.ok).toBe(false);
    const errors = (result as { errors: Record<string, string> }).errors;
    expect(errors).toEqual({
      [BROADCAST_BLOCK.session]: 'Pick a session from the list.',
      [`${BROADCAST_BLOCK.rtmpUrlPrefix}1`]: 'rtmp://host/app needs a port, e.g. rtmps://live.example.com:443/app.',
      [`${BROADCAST_BLOCK.rtmpKeyPrefix}2`]: 'Enter the stream key of this output.',
      [`${BROADCAST_BLOCK.rtmpIdPrefix}3`]: 'Output 2 has this name already; names must be unique.',
      [`${BROADCAST_BLOCK.rtmpIdPrefix}4`]: 'Output 2 has this name already; names must be unique.',
      [BROADCAST_BLOCK.stylesheet]: 'A stylesheet goes only with the custom layout.',
      [BROADCAST_BLOCK.media]: 'A broadcast needs audio, video or both.',
    });
    expectNoKey(errors);
  });

  it('asks for some output, and maps adapter validation fields back to blocks', () => {
    const result = readStartForm({ ...picked, [BROADCAST_BLOCK.hls]: choice('off') }, 1, known);
    expect(result).toEqual({ ok: false, errors: { [BROADCAST_BLOCK.hls]: 'Choose HLS, fill in an RTMP output, or both.' } });
    expect(blockForField('outputs.rtmp[1].streamName', [1, 3])).toBe(`${BROADCAST_BLOCK.rtmpKeyPrefix}3`);
    expect(blockForField('layout.screenshareType', [])).toBe(BROADCAST_BLOCK.screenshare);
    expect(blockForField('maxBitrate', [])).toBe(BROADCAST_BLOCK.maxBitrate);
    expect(blockForField('hasVideo', [])).toBe(BROADCAST_BLOCK.media);
  });
});
