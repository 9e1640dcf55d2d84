import { startArchiveBody, uploadTargetBody } from '../../src/api/archives';
import { startBroadcastBody } from '../../src/api/broadcasts';
import { startCaptionsBody } from '../../src/api/captions';
import { VideoClient } from '../../src/api/client';
import { websocketBody } from '../../src/api/connect';
import { VideoValidationError } from '../../src/api/errors';
import { muteAllBody } from '../../src/api/moderation';
import { callerToken } from '../../src/api/participant';
import { startRenderBody } from '../../src/api/render';
import { addStreamBody, validateLayout } from '../../src/api/schemas';
import { sessionCreateForm } from '../../src/api/sessions';
import { signalBody } from '../../src/api/signals';
import { dtmfDigits, sipBody } from '../../src/api/sip';
import { layoutClassesBody } from '../../src/api/streams';
import { pagingQuery, requireId } from '../../src/api/validate';

type Case = [string, () => unknown, string | null, RegExp?];

const rtmp = (serverUrl: string, id?: string) => ({ ...(id && { id }), serverUrl, streamName: 'key' });
const S = 'SESSION';

const cases: Case[] = [
  // signals
  ['signal ok (128-byte type, 8192-byte data)', () => signalBody({ type: 't'.repeat(128), data: 'd'.repeat(8192) }), null],
  ['signal type 129 bytes', () => signalBody({ type: 't'.repeat(129), data: '' }), 'type', /at most 128 bytes in UTF-8 \(got 129 bytes\)/],
  ['signal type counted in UTF-8 bytes (43 × "é" = 86 B ok)', () => signalBody({ type: 'é'.repeat(64), data: '' }), null],
  ['signal type multibyte over limit', () => signalBody({ type: '€'.repeat(43), data: '' }), 'type', /got 129 bytes/],
  ['signal data 8193 bytes', () => signalBody({ type: 'chat', data: 'x'.repeat(8193) }), 'data', /at most 8192 bytes/],
  ['signal data emoji over limit', () => signalBody({ type: 'chat', data: '😀'.repeat(2049) }), 'data', /got 8196 bytes/],
  ['signal missing type', () => signalBody({ data: 'x' }), 'type', /Example: "chat"/],
  ['signal data not a string', () => signalBody({ type: 'chat', data: 5 }), 'data'],
  // layout
  ['layout bestFit', () => validateLayout('layout', { type: 'bestFit' }), null],
  ['layout custom with stylesheet', () => validateLayout('layout', { type: 'custom', stylesheet: 'stream {}' }), null],
  ['layout bestFit + screenshareType', () => validateLayout('layout', { type: 'bestFit', screenshareType: 'pip' }), null],
  ['layout unknown type', () => validateLayout('layout', { type: 'grid' }), 'layout.type', /must be one of bestFit, custom/],
  [
    'layout stylesheet without custom (rule 1)',
    () => validateLayout('layout', { type: 'pip', stylesheet: 'x' }),
    'layout.stylesheet',
    /only with type "custom"/,
  ],
  [
    'layout screenshareType with pip (rule 2)',
    () => validateLayout('layout', { type: 'pip', screenshareType: 'bestFit' }),
    'layout.screenshareType',
    /needs type "bestFit"/,
  ],
  [
    'layout screenshareType with stylesheet (rule 2)',
    () => validateLayout('layout', { type: 'custom', stylesheet: 'x', screenshareType: 'pip' }),
    'layout.screenshareType',
    /bestFit/,
  ],
  ['layout screenshareType invalid value (rule 3)', () => validateLayout('layout', { type: 'bestFit', screenshareType: 'big' }), 'layout.screenshareType'],
  // session create
  ['session defaults', () => sessionCreateForm({}), null],
  [
    'session always + routed + name 80',
    () => sessionCreateForm({ archiveMode: 'always', mediaMode: 'routed', archiveName: 'n'.repeat(80), archiveResolution: '1280x720' }),
    null,
  ],
  [
    'session archiveName 81',
    () => sessionCreateForm({ archiveMode: 'always', archiveName: 'n'.repeat(81) }),
    'archiveName',
    /at most 80 characters \(got 81\)/,
  ],
  ['session archiveName without always', () => sessionCreateForm({ archiveName: 'x' }), 'archiveName', /only with archiveMode "always"/],
  [
    'session archiveResolution without always',
    () => sessionCreateForm({ archiveMode: 'manual', archiveResolution: '640x480' }),
    'archiveResolution',
    /only with archiveMode "always"/,
  ],
  ['session always + relayed', () => sessionCreateForm({ archiveMode: 'always', mediaMode: 'relayed' }), 'mediaMode', /must be "routed"/],
  ['session bad archiveResolution', () => sessionCreateForm({ archiveMode: 'always', archiveResolution: '800x600' as never }), 'archiveResolution'],
  ['session location not an IP', () => sessionCreateForm({ location: 'paris' }), 'location', /IPv4 or IPv6/],
  // archives
  ['archive minimal', () => startArchiveBody({ sessionId: S }), null],
  ['archive name 255', () => startArchiveBody({ sessionId: S, name: 'n'.repeat(255) }), null],
  ['archive name 256', () => startArchiveBody({ sessionId: S, name: 'n'.repeat(256) }), 'name', /at most 255 characters/],
  ['archive audio+video both false', () => startArchiveBody({ sessionId: S, hasAudio: false, hasVideo: false }), 'hasVideo', /cannot both be false/],
  [
    'archive resolution with individual',
    () => startArchiveBody({ sessionId: S, outputMode: 'individual', resolution: '640x480' }),
    'resolution',
    /only to composed/,
  ],
  ['archive layout with individual', () => startArchiveBody({ sessionId: S, outputMode: 'individual', layout: { type: 'bestFit' } }), 'layout'],
  ['archive bad outputMode', () => startArchiveBody({ sessionId: S, outputMode: 'mixed' as never }), 'outputMode', /"composed", "individual"/],
  ['archive missing sessionId', () => startArchiveBody({} as never), 'sessionId', /required/],
  ['archive sessionId with slash', () => startArchiveBody({ sessionId: 'a/b' }), 'sessionId', /must not contain "\/"/],
  ['stream selection both false', () => addStreamBody('STREAM', { hasAudio: false, hasVideo: false }), 'hasVideo'],
  ['stream selection ok', () => addStreamBody('STREAM', { hasAudio: false }), null],
  // upload target
  [
    's3 target',
    () => uploadTargetBody({ type: 's3', config: { accessKey: 'a', secretKey: 's', bucket: 'b', endpoint: 'https://s3.example.com' }, fallback: 'service' }),
    null,
  ],
  [
    's3 endpoint ftp',
    () => uploadTargetBody({ type: 's3', config: { accessKey: 'a', secretKey: 's', bucket: 'b', endpoint: 'ftp://x' } }),
    'config.endpoint',
    /http:\/\/ or https:\/\//,
  ],
  ['s3 missing secretKey', () => uploadTargetBody({ type: 's3', config: { accessKey: 'a', bucket: 'b' } } as never), 'config.secretKey'],
  ['blobstore target', () => uploadTargetBody({ type: 'blobstore', config: { accountName: 'n', accountKey: 'k', container: 'c', domain: 'd.example' } }), null],
  ['blobstore missing container', () => uploadTargetBody({ type: 'blobstore', config: { accountName: 'n', accountKey: 'k' } } as never), 'config.container'],
  ['target unknown type', () => uploadTargetBody({ type: 'gcs', config: {} } as never), 'type', /"s3" or "blobstore"/],
  [
    'target bad fallback',
    () => uploadTargetBody({ type: 's3', config: { accessKey: 'a', secretKey: 's', bucket: 'b' }, fallback: 'always' as never }),
    'fallback',
  ],
  // broadcasts
  ['broadcast hls only', () => startBroadcastBody({ sessionId: S, outputs: { hls: {} } }), null],
  [
    'broadcast 5 rtmp + limits',
    () =>
      startBroadcastBody({
        sessionId: S,
        maxBitrate: 6_000_000,
        maxDuration: 60,
        outputs: { rtmp: [1, 2, 3, 4, 5].map((i) => rtmp(`rtmp://h:1935/a${i}`, `o${i}`)) },
      }),
    null,
  ],
  ['broadcast single rtmp object', () => startBroadcastBody({ sessionId: S, outputs: { rtmp: rtmp('rtmps://h:443/app') } }), null],
  ['broadcast no outputs', () => startBroadcastBody({ sessionId: S, outputs: {} }), 'outputs', /hls output, rtmp outputs, or both/],
  [
    'broadcast 6 rtmp',
    () => startBroadcastBody({ sessionId: S, outputs: { rtmp: [1, 2, 3, 4, 5, 6].map((i) => rtmp(`rtmp://h:1935/a${i}`)) } }),
    'outputs.rtmp',
    /at most 5/,
  ],
  [
    'broadcast duplicate rtmp ids',
    () => startBroadcastBody({ sessionId: S, outputs: { rtmp: [rtmp('rtmp://h:1/a', 'x'), rtmp('rtmp://h:1/b', 'x')] } }),
    'outputs.rtmp[1].id',
    /unique/,
  ],
  [
    'broadcast rtmp without port',
    () => startBroadcastBody({ sessionId: S, outputs: { rtmp: [rtmp('rtmp://live.example.com/app')] } }),
    'outputs.rtmp[0].serverUrl',
    /must include the port/,
  ],
  [
    'broadcast rtmp http scheme',
    () => startBroadcastBody({ sessionId: S, outputs: { rtmp: [rtmp('http://h:80/app')] } }),
    'outputs.rtmp[0].serverUrl',
    /rtmp:\/\/ or rtmps:\/\//,
  ],
  [
    'broadcast lowLatency + dvr',
    () => startBroadcastBody({ sessionId: S, outputs: { hls: { dvr: true, lowLatency: true } } }),
    'outputs.hls.lowLatency',
    /cannot be combined with dvr/,
  ],
  ['broadcast maxBitrate 99,999', () => startBroadcastBody({ sessionId: S, maxBitrate: 99_999, outputs: { hls: {} } }), 'maxBitrate', /100,000 to 6,000,000/],
  ['broadcast maxBitrate 6,000,001', () => startBroadcastBody({ sessionId: S, maxBitrate: 6_000_001, outputs: { hls: {} } }), 'maxBitrate'],
  ['broadcast maxDuration 59', () => startBroadcastBody({ sessionId: S, maxDuration: 59, outputs: { hls: {} } }), 'maxDuration', /60 to 36,000/],
  ['broadcast maxDuration 36,001', () => startBroadcastBody({ sessionId: S, maxDuration: 36_001, outputs: { hls: {} } }), 'maxDuration'],
  ['broadcast maxDuration fractional', () => startBroadcastBody({ sessionId: S, maxDuration: 60.5, outputs: { hls: {} } }), 'maxDuration', /whole number/],
  ['broadcast audio+video false', () => startBroadcastBody({ sessionId: S, hasAudio: false, hasVideo: false, outputs: { hls: {} } }), 'hasVideo'],
  ['broadcast bad resolution', () => startBroadcastBody({ sessionId: S, resolution: '1x1' as never, outputs: { hls: {} } }), 'resolution'],
  // sip & dtmf
  [
    'sip full',
    () =>
      sipBody({
        uri: 'sips:alice@example.com;transport=tls',
        from: "a_b+c!d%e`f'g~h-1@example.com",
        auth: { username: 'u', password: 'p' },
        secure: true,
        headers: { 'X-A': 'b' },
      }),
    null,
  ],
  ['sip uri http', () => sipBody({ uri: 'http://example.com' }), 'sip.uri', /"sip:" or "sips:"/],
  ['sip from without @', () => sipBody({ uri: 'sip:a@b', from: 'alice' }), 'sip.from', /name@domain/],
  ['sip from bad name char', () => sipBody({ uri: 'sip:a@b', from: 'al ice@example.com' }), 'sip.from'],
  ['sip from bad char (#)', () => sipBody({ uri: 'sip:a@b', from: 'al#ice@example.com' }), 'sip.from'],
  ['sip auth without password', () => sipBody({ uri: 'sip:a@b', auth: { username: 'u' } }), 'sip.auth.password'],
  ['dtmf ok', () => dtmfDigits('0123456789*#p'), null],
  ['dtmf letters', () => dtmfDigits('12a'), 'digits', /0-9, \*, # and p/],
  ['dtmf empty', () => dtmfDigits(''), 'digits'],
  // captions
  ['captions ok', () => startCaptionsBody({ sessionId: S, languageCode: 'th-TH', maxDuration: 300, partialCaptions: false }), null],
  ['captions maxDuration 299', () => startCaptionsBody({ sessionId: S, maxDuration: 299 }), 'maxDuration', /300 to 14,400/],
  ['captions maxDuration 14,401', () => startCaptionsBody({ sessionId: S, maxDuration: 14_401 }), 'maxDuration'],
  ['captions language', () => startCaptionsBody({ sessionId: S, languageCode: 'es-ES' as never }), 'languageCode', /"en-US"/],
  ['captions token with wrong role', () => callerToken(jwtWith({ role: 'publisher', session_id: S }), 'moderator', S), 'token', /needs role "moderator"/],
  ['captions token for another session', () => callerToken(jwtWith({ role: 'moderator', session_id: 'OTHER' }), 'moderator', S), 'token', /another session/],
  ['opaque caller token accepted', () => callerToken('T1==opaque', 'moderator', S), null],
  // render
  [
    'render ok (15 chars)',
    () => startRenderBody({ sessionId: S, url: 'https://a.io/xy', maxDuration: 36_000, resolution: '1080x1920', properties: { name: 'n'.repeat(200) } }),
    null,
  ],
  ['render url 14 chars', () => startRenderBody({ sessionId: S, url: 'https://a.io/x' }), 'url', /15 to 2048 characters long \(got 14\)/],
  ['render url 2049 chars', () => startRenderBody({ sessionId: S, url: `https://example.com/${'p'.repeat(2029)}` }), 'url', /got 2049/],
  ['render url not http', () => startRenderBody({ sessionId: S, url: 'ftp://example.com/page' }), 'url', /http:\/\/ or https:\/\//],
  ['render url not a URL', () => startRenderBody({ sessionId: S, url: 'not a url at all, sorry' }), 'url', /valid URL/],
  ['render maxDuration 59', () => startRenderBody({ sessionId: S, url: 'https://example.com/page', maxDuration: 59 }), 'maxDuration', /60 to 36,000/],
  ['render name empty', () => startRenderBody({ sessionId: S, url: 'https://example.com/page', properties: { name: '' } }), 'properties.name', /1 to 200/],
  ['render name 201', () => startRenderBody({ sessionId: S, url: 'https://example.com/page', properties: { name: 'n'.repeat(201) } }), 'properties.name'],
  ['render resolution', () => startRenderBody({ sessionId: S, url: 'https://example.com/page', resolution: '1024x768' as never }), 'resolution'],
  // audio connector
  ['connect ok', () => websocketBody({ uri: 'wss://x.example/ws', audioRate: 8000, headers: { a: 'b' }, streams: ['s1'] }), null],
  ['connect http uri', () => websocketBody({ uri: 'https://x.example/ws' }), 'websocket.uri', /ws:\/\/ or wss:\/\//],
  ['connect audioRate 44100', () => websocketBody({ uri: 'ws://x.example', audioRate: 44100 }), 'websocket.audioRate', /8000, 16000/],
  [
    'connect headers 513 bytes',
    () => websocketBody({ uri: 'ws://x.example', headers: { h: 'v'.repeat(505) } }),
    'websocket.headers',
    /at most 512 bytes as JSON \(got 513 bytes\)/,
  ],
  ['connect headers 512 bytes', () => websocketBody({ uri: 'ws://x.example', headers: { h: 'v'.repeat(504) } }), null],
  // moderation, streams, paging, ids
  ['muteAll ok', () => muteAllBody({ active: true, excludedStreamIds: ['a'] }), null],
  ['muteAll active missing', () => muteAllBody({}), 'active', /true or false/],
  ['muteAll excluded not array', () => muteAllBody({ active: true, excludedStreamIds: 'a' }), 'excludedStreamIds'],
  ['layout classes ok', () => layoutClassesBody([{ id: 'a', layoutClassList: ['focus'] }]), null],
  ['layout classes empty list', () => layoutClassesBody([]), 'items', /non-empty array/],
  ['layout classes bad classes', () => layoutClassesBody([{ id: 'a', layoutClassList: 'focus' }]), 'items[0].layoutClassList'],
  ['paging ok', () => pagingQuery(0, 1000), null],
  ['paging count 0', () => pagingQuery(0, 0), 'count', /1 to 1,000/],
  ['paging count 1001', () => pagingQuery(undefined, 1001), 'count'],
  ['paging offset -1', () => pagingQuery(-1, 10), 'offset', /0 or more/],
  ['id empty', () => requireId('archiveId', ''), 'archiveId', /non-empty/],
  ['id with slash', () => requireId('archiveId', '../x'), 'archiveId', /"\/"/],
];

function jwtWith(payload: Record<string, unknown>): string {
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  return `${b64({ alg: 'HS256' })}.${b64(payload)}.sig`;
}

describe('request validation', () => {
  // Rest parameters: jest would take a 4th named parameter of a 3-element row for `done`.
  test.each(cases)('%s', (...[, run, field, message]: Case) => {
    if (field === null) {
      expect(run).not.toThrow();
      return;
    }
    let error: unknown;
    try {
      run();
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(VideoValidationError);
    const validation = error as VideoValidationError;
    expect(validation.field).toBe(field);
    expect(validation.status).toBeUndefined();
    expect(validation.message).toContain('Example:');
    if (message) expect(validation.message).toMatch(message);
  });
});

describe('validation through the client rejects before any request', () => {
  const client = new VideoClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k', apiSecret: 'secret-value' });

  test.each<[string, () => Promise<unknown>, string]>([
    ['projects.setStatus', () => client.projects.setStatus('k', 'PAUSED' as never), 'status'],
    ['projects without account credentials', () => client.projects.list({ maxRetries: 0 }), 'accountApiKey'],
    ['archives.get empty id', () => client.archives.get(''), 'archiveId'],
    ['broadcasts.list count', () => client.broadcasts.list({ count: 5000 }), 'count'],
    ['render.listAll pageSize', () => client.render.listAll({ pageSize: 0 }).next(), 'pageSize'],
    ['sip.playDtmf digits', () => client.sip.playDtmf('S', '12x'), 'digits'],
    ['signals.sendToConnection connection id', () => client.signals.sendToConnection('S', 'a/b', { type: 't', data: 'd' }), 'connectionId'],
  ])('%s', async (_name, run, field) => {
    await expect(run()).rejects.toMatchObject({ name: 'VideoValidationError', field });
  });

  test('constructor checks its options', () => {
    expect(() => new VideoClient({ baseUrl: 'http://x', apiKey: '', apiSecret: 's' })).toThrow(/apiKey/);
    expect(() => new VideoClient({ baseUrl: 'http://x', apiKey: 'k', apiSecret: 's', accountApiKey: 'a' })).toThrow(/together/);
  });
});
