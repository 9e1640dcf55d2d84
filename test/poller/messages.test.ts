import { messageFor, replyFor, replyText, resourceLabel } from '../../src/poller/messages';
import { formatBytes, formatDuration } from '../../src/views/format';
import { broadcastSnapshot } from '../../src/poller/snapshot';
import { type Severity, type Transition, type TransitionEvent, diff } from '../../src/poller/transitions';
import { broadcast } from './fakes';

const t = (event: TransitionEvent, severity: Severity = 'info'): Transition => ({ key: event.type, severity, event });

describe('formatDuration', () => {
  it.each([
    [0, '0 s'],
    [45, '45 s'],
    [59.6, '1 min'],
    [720, '12 min'],
    [3_599, '1 h'],
    [3_900, '1 h 5 min'],
    [14_400, '4 h'],
    [36_000, '10 h'],
    [-5, '0 s'],
  ])('%s s → %s', (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text);
  });
});

describe('formatBytes', () => {
  it.each([
    [0, '0 B'],
    [512, '512 B'],
    [1_500, '1.5 kB'],
    [8_400_000, '8.4 MB'],
    [84_000_000, '84 MB'],
    [2_000_000, '2 MB'],
    [1_234_000_000, '1.2 GB'],
    [5e15, '5000 TB'],
  ])('%s → %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });
});

describe('messageFor', () => {
  it.each<[TransitionEvent, string]>([
    [{ type: 'archive-started' }, 'Recording started'],
    [{ type: 'archive-paused' }, 'Recording paused: nobody is publishing'],
    [{ type: 'archive-resumed' }, 'Recording resumed'],
    [{ type: 'archive-stopped', reason: 'maximum duration exceeded' }, 'Recording stopped: maximum duration reached (4 h)'],
    [{ type: 'archive-stopped', reason: 'maximum idle time exceeded' }, 'Recording stopped: nobody published for too long'],
    [{ type: 'archive-stopped', reason: 'session ended' }, 'Recording stopped: everyone left the session'],
    [{ type: 'archive-stopped', reason: 'user initiated' }, 'Recording stopped on request'],
    [{ type: 'archive-stopped' }, 'Recording stopped'],
    [{ type: 'archive-available', durationS: 720, sizeBytes: 84_000_000 }, 'Recording available — 12 min, 84 MB'],
    [{ type: 'archive-available', durationS: 30, sizeBytes: 0 }, 'Recording available — 30 s'],
    [{ type: 'archive-uploaded', durationS: 3_900, sizeBytes: 1_234_000_000 }, 'Recording uploaded to the storage target — 1 h 5 min, 1.2 GB'],
    [{ type: 'archive-expired' }, 'Recording expired: it can no longer be downloaded'],
    [{ type: 'archive-failed' }, 'Recording failed'],
    [{ type: 'archive-deleted' }, 'Recording deleted'],
    [{ type: 'broadcast-live', hls: 'live', rtmpLive: 2, rtmpTotal: 3 }, 'Broadcast live on HLS and 2 of 3 RTMP outputs'],
    [{ type: 'broadcast-live', hls: 'live', rtmpLive: 0, rtmpTotal: 0 }, 'Broadcast live on HLS'],
    [{ type: 'broadcast-live', rtmpLive: 1, rtmpTotal: 1 }, 'Broadcast live on RTMP'],
    [{ type: 'broadcast-live', rtmpLive: 3, rtmpTotal: 3 }, 'Broadcast live on all 3 RTMP outputs'],
    [{ type: 'broadcast-live', hls: 'ready', rtmpLive: 1, rtmpTotal: 2 }, 'Broadcast live on 1 of 2 RTMP outputs; HLS ready'],
    [{ type: 'broadcast-hls', status: 'ready' }, 'HLS ready: transcoders are up, waiting for the CDN'],
    [{ type: 'broadcast-hls', status: 'ended' }, 'HLS ended: the source stream ended'],
    [{ type: 'broadcast-hls', status: 'error' }, 'HLS failed with an error'],
    [
      { type: 'broadcast-rtmp', outputId: 'yt', status: 'offline' },
      "RTMP output 'yt' offline: server unreachable, handshake or authentication error, rejected connection, unknown application or rejected stream name",
    ],
    [{ type: 'broadcast-rtmp', outputId: 'yt', status: 'error' }, "RTMP output 'yt' failed with an error"],
    [{ type: 'broadcast-rtmp', outputId: 'yt', status: 'connecting' }, "RTMP output 'yt' reconnecting"],
    [{ type: 'broadcast-stopped', maxDurationS: 14_400 }, 'Broadcast stopped: maximum duration reached (4 h)'],
    [{ type: 'broadcast-stopped' }, 'Broadcast stopped'],
    [{ type: 'render-started' }, 'Composer started'],
    [{ type: 'render-stopped', reason: 'Stop Requested' }, 'Composer stopped: stop requested'],
    [{ type: 'render-stopped', reason: 'Max Duration Exceeded' }, 'Composer stopped: maximum duration reached'],
    [{ type: 'render-failed', reason: 'Could not load URL' }, 'Composer failed: Could not load URL'],
    [{ type: 'render-failed' }, 'Composer failed'],
    [{ type: 'captions-ended', maxDurationS: 14_400 }, 'Live captions ended: maximum duration reached (4 h)'],
    [{ type: 'sip-connected' }, 'Phone call connected'],
    [{ type: 'sip-ended', neverConnected: false }, 'Phone call ended'],
    [{ type: 'sip-ended', neverConnected: true }, 'Phone call ended without connecting'],
    [{ type: 'audio-ended' }, 'Audio connection ended: none of its streams is left in the session'],
    [{ type: 'status-changed', kind: 'render', status: 'paused' }, 'Composer is now paused'],
    [{ type: 'gone', kind: 'archive' }, 'Recording no longer exists on the service'],
    [{ type: 'watch-expired', kind: 'broadcast', lastStatus: 'started' }, 'Stopped watching this broadcast: last status started'],
    [
      { type: 'watch-expired', kind: 'session-discovery', lastStatus: 'watching' },
      'Stopped watching: this watch reached its maximum age. `/video watch` starts it again',
    ],
    [{ type: 'archive-stopped', reason: 'a new <reason>' }, 'Recording stopped: a new &lt;reason&gt;'],
  ])('%j', (event, text) => {
    expect(messageFor(t(event))).toBe(text);
  });

  it('announces discoveries with the archive name and id', () => {
    const state = { status: 'started', createdAt: 1, durationS: 0, sizeBytes: 0, name: 'Board <meeting>' };
    expect(messageFor(t({ type: 'discovered-archive', id: 'A-1', state }))).toBe('New recording started in this session: “Board &lt;meeting&gt;” (`A-1`)');
  });

  it('escapes everything that came from a user or the service', () => {
    const texts = [
      messageFor(t({ type: 'broadcast-rtmp', outputId: '<!channel>', status: 'offline' })),
      messageFor(t({ type: 'render-failed', reason: 'a & <b>' })),
      messageFor(t({ type: 'archive-stopped', reason: '<@U123>' })),
      messageFor(t({ type: 'status-changed', kind: 'archive', status: '<!here>' })),
    ];
    for (const text of texts) expect(text).not.toMatch(/<|>/);
    expect(texts[1]).toBe('Composer failed: a &amp; &lt;b&gt;');
  });

  it('never shows RTMP stream names or server URLs, however the broadcast changes', () => {
    const outputs = (status: string) => [{ id: 'yt', status, serverUrl: 'rtmp://user:pass@a.rtmp.example/live2', streamName: 'abcd-efgh-SECRET' }];
    const before = broadcastSnapshot(
      broadcast({ id: 'B', broadcastUrls: { hls: 'https://cdn/x.m3u8?token=T', hlsStatus: 'ready', rtmp: outputs('connecting') } }),
      0,
    );
    const after = broadcast({ id: 'B', broadcastUrls: { hls: 'https://cdn/x.m3u8?token=T', hlsStatus: 'live', rtmp: outputs('offline') } });
    const text = diff('broadcast', before, after, { now: 1 })
      .map((transition) => replyText(transition))
      .join('\n');
    expect(text).toContain("RTMP output 'yt' offline");
    expect(text).not.toMatch(/SECRET|rtmp:\/\/|pass|token=/);
  });
});

describe('replyText', () => {
  it('prefixes an icon by severity and an escaped label when given', () => {
    expect(replyText(t({ type: 'archive-paused' }, 'warning'))).toBe(':warning: Recording paused: nobody is publishing');
    expect(replyText(t({ type: 'archive-failed' }, 'error'), 'Q&A')).toBe(':x: Q&amp;A · Recording failed');
    expect(replyText(t({ type: 'archive-resumed' }))).toBe('Recording resumed');
  });

  it('labels a resource by name, else by kind and short id', () => {
    expect(resourceLabel('archive', 'b40ef09b-3811-4726', 'Weekly')).toBe('Weekly');
    expect(resourceLabel('broadcast', 'b40ef09b-3811-4726')).toBe('Broadcast b40ef09b');
  });
});

describe('replyFor', () => {
  const card = { context: { startedBy: 'U0MOD', alias: 'standup' }, actions: [] };

  it.each([
    ['a failure mentions who started it', t({ type: 'archive-failed' }, 'error'), card, ':x: Recording failed · started by <@U0MOD>'],
    ['a composer failure too', t({ type: 'render-failed', reason: 'page crashed' }, 'error'), card, ':x: Composer failed: page crashed · started by <@U0MOD>'],
    ['other news does not ping anyone', t({ type: 'archive-paused' }, 'warning'), card, ':warning: Recording paused: nobody is publishing'],
    ['a watch of the previous version (no card model) says it plainly', t({ type: 'archive-failed' }, 'error'), undefined, ':x: Recording failed'],
    [
      'a stored name that is not a user ID is shown as text, never a mention',
      t({ type: 'archive-failed' }, 'error'),
      { context: { startedBy: '<!channel>' } },
      ':x: Recording failed · started by &lt;!channel&gt;',
    ],
  ])('%s', (_what, transition, model, text) => {
    expect(replyFor({ ...(model && { card: model }) }, transition)).toBe(text);
  });
});
