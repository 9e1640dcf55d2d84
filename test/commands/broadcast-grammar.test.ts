/** `/broadcast` grammar, RTMP output specs and option values (pure). */
import { broadcastCommand } from '../../src/commands/broadcast';
import { rtmpHost } from '../../src/kinds/broadcast';
import { displayServerUrl, parseRtmpSpec, serverUrlProblem } from '../../src/commands/broadcast/rtmp';
import { startAuditTarget } from '../../src/commands/broadcast/start';
import { parseBitrate, parseDurationSeconds, parseLayoutType, parseResolution } from '../../src/commands/broadcast/values';
import { parseCommand, usageHint } from '../../src/commands/grammar';

const KEY = 'sk_live_SUPERSECRET_4242';

function parse(text: string) {
  const result = parseCommand(broadcastCommand, text);
  if (result.kind === 'usage') return { problem: result.problem.problem };
  if (result.kind === 'ok') return { sub: result.subcommand.name, args: result.args };
  return { help: true };
}

describe('RTMP output specs', () => {
  it.each([
    [`rtmps://live.example.com:443/app/${KEY}`, { serverUrl: 'rtmps://live.example.com:443/app', streamName: KEY }],
    [`yt=rtmps://a.rtmp.youtube.com:443/live2/${KEY}`, { id: 'yt', serverUrl: 'rtmps://a.rtmp.youtube.com:443/live2', streamName: KEY }],
    ['RTMP://h.example.com:1935/a/b/key?bandwidthtest=true', { serverUrl: 'rtmp://h.example.com:1935/a/b', streamName: 'key?bandwidthtest=true' }],
    ['rtmp://[::1]:1935/app/k', { serverUrl: 'rtmp://[::1]:1935/app', streamName: 'k' }],
  ])('%s', (spec, output) => {
    expect(parseRtmpSpec(spec)).toEqual({ ok: true, output });
  });

  it.each([
    [`rtmp://host/app/${KEY}`, 'rtmp://host/app needs a port, e.g. rtmps://live.example.com:443/app'],
    [`https://host:443/app/${KEY}`, 'an output is an rtmp:// or rtmps:// URL ending with the stream key, e.g. rtmps://live.example.com:443/app/STREAM-KEY'],
    [`rtmps://host:443/${KEY}`, 'rtmps://host:443 needs the application path and the stream key at the end, e.g. rtmps://live.example.com:443/app/STREAM-KEY'],
    [
      'rtmps://host:443/app/',
      'rtmps://host:443/app needs the application path and the stream key at the end, e.g. rtmps://live.example.com:443/app/STREAM-KEY',
    ],
    [`b@d=rtmps://host:443/app/${KEY}`, 'an output id uses letters, digits, “.”, “-” and “_” (at most 64), starting with a letter or digit'],
  ])('refuses %s without quoting the key', (spec, problem) => {
    const result = parseRtmpSpec(spec);
    expect(result).toEqual({ ok: false, problem });
    expect(JSON.stringify(result)).not.toContain(KEY);
  });

  it('shows server URLs without credentials and hosts alone', () => {
    expect(displayServerUrl('rtmp://user:secret@media.example.org:1935/app?token=x')).toBe('rtmp://media.example.org:1935/app');
    expect(rtmpHost('rtmps://user:secret@live.example.com:443/app')).toBe('live.example.com');
    expect(rtmpHost('nonsense')).toBe('unknown host');
    expect(serverUrlProblem('rtmp://user:secret@host/app')).toBe('rtmp://host/app needs a port, e.g. rtmps://live.example.com:443/app');
  });
});

describe('values', () => {
  it.each([
    ['3600', 3600],
    ['90m', 5400],
    ['2h', 7200],
    ['1h30m', 5400],
    ['45s', 45],
    ['soon', undefined],
    ['2h junk', undefined],
  ])('duration %s', (text, seconds) => expect(parseDurationSeconds(text)).toBe(seconds));

  it.each([
    ['2500000', 2_500_000],
    ['2500k', 2_500_000],
    ['2.5M', 2_500_000],
    ['800kbps', 800_000],
    ['fast', undefined],
  ])('bitrate %s', (text, bps) => expect(parseBitrate(text)).toBe(bps));

  it('resolutions and layout types, as people write them', () => {
    expect(parseResolution('720p')).toBe('1280x720');
    expect(parseResolution('1080X1920')).toBe('1080x1920');
    expect(parseResolution('4k')).toBeUndefined();
    expect(parseLayoutType('BestFit')).toBe('bestFit');
    expect(parseLayoutType('vertical')).toBe('verticalPresentation');
    expect(parseLayoutType('grid')).toBeUndefined();
  });
});

describe('/broadcast grammar', () => {
  it('start with outputs becomes start options', () => {
    expect(
      parse(
        `start standup --rtmp yt=rtmps://a.example.com:443/live2/${KEY} --rtmp rtmp://b.example.com:1935/app/k2 --hls --dvr --resolution 720p --max-duration 2h --max-bitrate 2500k --manual --tag main --layout bestfit --screenshare pip --audio-only`,
      ),
    ).toEqual({
      sub: 'start',
      args: {
        session: 'standup',
        settings: {
          outputs: {
            hls: { dvr: true },
            rtmp: [
              { id: 'yt', serverUrl: 'rtmps://a.example.com:443/live2', streamName: KEY },
              { serverUrl: 'rtmp://b.example.com:1935/app', streamName: 'k2' },
            ],
          },
          resolution: '1280x720',
          maxDuration: 7200,
          maxBitrate: 2_500_000,
          streamMode: 'manual',
          multiBroadcastTag: 'main',
          layout: { type: 'bestFit', screenshareType: 'pip' },
          hasVideo: false,
        },
      },
    });
  });

  it('start alone, or with only a session, opens the form', () => {
    expect(parse('start')).toEqual({ sub: 'start', args: {} });
    expect(parse('start standup --project prod')).toEqual({ sub: 'start', args: { session: 'standup', project: 'prod' } });
  });

  it.each([
    ['start --resolution 720p', '--hls: say where to broadcast: add --hls, one or more --rtmp, or both (or run `/broadcast start` alone for a form)'],
    ['start --hls --dvr --low-latency', '--low-latency: HLS can have DVR or low latency, not both'],
    ['start --rtmp rtmps://h.example.com:443/app/k --dvr', '--dvr: applies to the HLS output: add --hls'],
    [`start --rtmp rtmp://host/app/${KEY}`, '--rtmp: rtmp://host/app needs a port, e.g. rtmps://live.example.com:443/app'],
    [
      `start ${Array.from({ length: 6 }, (_v, i) => `--rtmp rtmps://h${i}.example.com:443/app/${KEY}${i}`).join(' ')} --hls`,
      '--rtmp: a broadcast has at most 5 RTMP outputs (6 were given); start a second broadcast with its own --tag for more',
    ],
    ['start --rtmp a=rtmps://h.example.com:443/app/k1,a=rtmps://i.example.com:443/app/k2', '--rtmp: two outputs are named “a”; output ids must be unique'],
    ['start --hls --max-duration 30', '--max-duration: must be 1 minute to 10 hours (60 to 36000 seconds), e.g. 2h'],
    ['start --hls --max-bitrate 10M', '--max-bitrate: must be 100k to 6M bits per second, e.g. 2500k'],
    ['start --hls --resolution 4k', '--resolution: use one of 640x480, 1280x720, 1920x1080, 480x640, 720x1280, 1080x1920 (or 480p, 720p, 1080p)'],
    ['start --hls --layout pip --screenshare pip', '--screenshare: a screen-share layout goes only with the bestFit layout'],
    ['start --hls --layout custom', '--layout: the custom layout needs a stylesheet'],
    ['start --hls --audio-only --video-only', '--video-only: a broadcast needs audio, video or both: give --audio-only or --video-only, not both'],
    ['show', '<broadcast-id> is missing (the broadcast; `/broadcast list` shows them)'],
    ['layout 6706b658-2eba-42cc-b4d2-7d01a104d182 grid', '<type>: use bestFit, pip, horizontalPresentation, verticalPresentation or custom'],
    ['layout 6706b658-2eba-42cc-b4d2-7d01a104d182 pip --stylesheet "x {}"', '--stylesheet: a stylesheet goes only with the custom layout'],
    ['add b1 s1 --audio-only --video-only', '--video-only: give --audio-only or --video-only, not both (without either, both are included)'],
    ['remove b1', '<stream-id> is missing (the stream to take out)'],
    ['pause', '“pause” is not a subcommand of /broadcast; try start, stop, list, show, layout, add, remove'],
  ])('%s → %s', (text, problem) => {
    const result = parse(text);
    expect(result).toEqual({ problem });
    expect(JSON.stringify(result)).not.toContain(KEY);
  });

  it('the other forms', () => {
    expect(parse('stop')).toEqual({ sub: 'stop', args: {} });
    expect(parse('list standup')).toEqual({ sub: 'list', args: { session: 'standup' } });
    expect(parse('layout b1 custom --stylesheet "stream { float: left; }"')).toEqual({
      sub: 'layout',
      args: { broadcastId: 'b1', layout: { type: 'custom', stylesheet: 'stream { float: left; }' } },
    });
    expect(parse('add b1 s1 --video-only')).toEqual({ sub: 'add', args: { broadcastId: 'b1', streamId: 's1', videoOnly: true } });
  });

  it('audit targets name outputs by id and host only', () => {
    const target = startAuditTarget('2_MX4s', {
      outputs: {
        hls: { dvr: true },
        rtmp: [
          { id: 'yt', serverUrl: 'rtmps://a.example.com:443/live2', streamName: KEY },
          { serverUrl: 'rtmp://b.example.com:1935/app', streamName: 'k2' },
        ],
      },
      multiBroadcastTag: 'main',
    });
    expect(target).toBe('session 2_MX4s tag main: HLS (DVR), RTMP yt → a.example.com, RTMP #2 → b.example.com');
  });

  it('fits the manifest usage hint limit', () => {
    expect(usageHint(broadcastCommand).length).toBeLessThanOrEqual(1000);
  });
});
