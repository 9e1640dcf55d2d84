import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { archiveSchema, parseArchiveList } from '../../src/api/archives';
import { ResponseBody } from '../../src/api/body';
import { broadcastSchema, parseBroadcastList } from '../../src/api/broadcasts';
import { captionsStartedSchema, captionsStatusSchema } from '../../src/api/captions';
import { audioConnectionSchema } from '../../src/api/connect';
import { VideoApiError, errorFromResponse } from '../../src/api/errors';
import { type ResponseParser, parseJson, responseContext } from '../../src/api/http';
import { connectionListSchema } from '../../src/api/moderation';
import { parseRenderList, renderSchema } from '../../src/api/render';
import { resourceSchema } from '../../src/api/schemas';
import { parseSessionCreateBody } from '../../src/api/sessions';
import { sipCallSchema } from '../../src/api/sip';
import { streamInfoSchema, streamListSchema } from '../../src/api/streams';

// Copied from ../shared/reference/fixtures (public SDK test data; INDEX.md names the sources).
const FIXTURES = join(__dirname, '..', 'reference', 'fixtures');
const read = (file: string) => readFileSync(join(FIXTURES, file), 'utf8');
const schemaFor: Record<string, z.ZodType> = {
  'archive.get': archiveSchema,
  'archive.start': archiveSchema,
  'archive.stop': archiveSchema,
  'broadcast.get': broadcastSchema,
  'broadcast.start': broadcastSchema,
  'broadcast.stop': broadcastSchema,
  'captions.start': captionsStartedSchema,
  'captions.status': captionsStatusSchema,
  'connect.websocket': audioConnectionSchema,
  'connection.list': connectionListSchema,
  'render.get': renderSchema,
  'render.start': renderSchema,
  'sip.dial': sipCallSchema,
  'stream.get': streamInfoSchema,
  'stream.list': streamListSchema,
};

/** Lists validate their items when read (src/api/lists.ts); spreading each item reads all of it. */
const listParserFor: Record<string, ResponseParser<{ items: object[] }>> = {
  'archive.list': parseArchiveList,
  'broadcast.list': parseBroadcastList,
  'render.list': parseRenderList,
};
const readAll = (parse: ResponseParser<{ items: object[] }>, body: string) =>
  parse(
    ResponseBody.fromText(body),
    'application/json',
    responseContext('GET', '/v2/project/k/list', 200, () => []),
  ).items.map((item) => ({ ...item }));

const files = readdirSync(FIXTURES).filter((f) => f !== 'INDEX.json' && f !== 'INDEX.md');
const operationOf = (file: string) => file.split('.').slice(0, 2).join('.');

describe('every fixture body is handled', () => {
  test.each(files)('%s', (file) => {
    const body = read(file);
    const operation = operationOf(file);
    if (file.includes('INVALID-JSON')) {
      expect(() => parseJson(schemaFor[operation]!, body)).toThrow(VideoApiError);
      try {
        parseJson(schemaFor[operation]!, body);
      } catch (error) {
        expect((error as VideoApiError).code).toBe('MALFORMED_RESPONSE');
        expect((error as VideoApiError).message).toMatch(/malformed response/);
      }
    } else if (file.startsWith('error.')) {
      const error = errorFromResponse({ method: 'GET', path: '/x', status: 404, body });
      expect(error).toBeInstanceOf(VideoApiError);
      expect(error.message).not.toMatch(/failed with 404: not found/);
      expect(error.message.length).toBeGreaterThan(20);
    } else if (operation === 'session.create') {
      const session = parseSessionCreateBody(body);
      expect(session.sessionId).toBe(session.session_id);
      expect(session.sessionId.length).toBeGreaterThan(0);
    } else if (listParserFor[operation]) {
      expect(readAll(listParserFor[operation], body).length).toBeGreaterThan(0);
    } else {
      const schema = schemaFor[operation];
      if (!schema) throw new Error(`no schema mapped for ${file}`);
      expect(() => parseJson(schema, body)).not.toThrow();
    }
  });
});

const parse = <S extends z.ZodType>(schema: S, file: string): z.output<S> => parseJson(schema, read(file));

describe('quirks are normalised', () => {
  test('partnerId becomes projectId (string); missing flags default per spec', () => {
    const archive = parse(archiveSchema, 'archive.get.available.ruby.json');
    expect(archive.projectId).toBe('123456');
    expect(archive.hasAudio).toBe(true);
    expect(archive.hasVideo).toBe(true);
    expect(archive.outputMode).toBe('composed');
    expect(archive.streamMode).toBe('auto');
    expect(archive.streams).toEqual([]);
    expect((archive as Record<string, unknown>).notarealproperty).toBe('not a real value');
  });

  test('numeric projectId becomes a string; url null kept as null; name null → undefined', () => {
    expect(parse(archiveSchema, 'archive.get.vonage-node.json').projectId).toBe('123456');
    const started = parse(archiveSchema, 'archive.start.manual-streamMode.php.json');
    expect(started.url).toBeNull();
    expect(started.name).toBeUndefined();
    expect(started.streamMode).toBe('manual');
  });

  test('RTMP outputs as array and as object keyed by id → one array shape', () => {
    const fromArray = parse(broadcastSchema, 'broadcast.start.rtmp.ruby.json');
    expect(fromArray.broadcastUrls?.rtmp).toEqual([
      { id: 'rubyTestStream', status: 'connecting', serverUrl: 'rtmp://x.rtmp.youtube.com/live2', streamName: '66c9-jwuh-pquf-9x18' },
    ]);
    const fromMap = parse(broadcastSchema, 'broadcast.start.hls-rtmp-map.php.json');
    expect(fromMap.broadcastUrls?.rtmp).toEqual([
      { id: 'foo', serverUrl: 'rtmp://myfooserver/myfooapp', streamName: 'myfoostreamname', status: 'live' },
      { id: 'bar', serverUrl: 'rtmp://mybarserver/mybarapp', streamName: 'mybarstreamname', status: 'offline' },
    ]);
    expect(fromMap.maxBitrate).toBe(2_000_000);
    expect(fromMap.settings?.hls).toEqual({ lowLatency: false, dvr: false });
    expect(parse(broadcastSchema, 'broadcast.start.hls.ruby.json').broadcastUrls?.rtmp).toEqual([]);
  });

  test('stopped broadcast: broadcastUrls null; seconds become ms', () => {
    const stopped = parse(broadcastSchema, 'broadcast.stop.ruby.json');
    expect(stopped.broadcastUrls).toBeNull();
    expect(stopped.createdAt).toBe(1538162113387);
    const inSeconds = parseJson(
      broadcastSchema,
      JSON.stringify({ ...JSON.parse(read('broadcast.stop.ruby.json')), createdAt: 1538162113, updatedAt: 1538162114 }),
    );
    expect(inSeconds.createdAt).toBe(1538162113000);
    expect(inSeconds.updatedAt).toBe(1538162114000);
  });

  test('render projectId string, reason and missing streamId', () => {
    const failed = parse(renderSchema, 'render.get.failed.php.json');
    expect(failed.projectId).toBe('27086612');
    expect(failed.status).toBe('failed');
    expect(failed.reason).toBe('Could not load URL');
    expect(failed.streamId).toBeUndefined();
  });

  test('captions status: captionId alias and timestamps in seconds', () => {
    const status = parse(captionsStatusSchema, 'captions.status.vonage-node.json');
    expect(status.captionsId).toBe('7c0680fc-6274-4de5-a66f-d0648e8d3ac2');
    expect(status.createdAt).toBe(1628115911000);
  });

  test('connection list: createdAt numeric string → number', () => {
    expect(parse(connectionListSchema, 'connection.list.php.json').items[0]!.createdAt).toBe(1384221730000);
  });

  test('session create: JSON array → first element; XML → same shape', () => {
    const json = parseSessionCreateBody(read('session.create.opentok-node.json'));
    expect(json).toMatchObject({ sessionId: 'SESSIONID', projectId: '123456', create_dt: 'Fri Nov 18 15:50:36 PST 2016' });
    const xml = parseSessionCreateBody(read('session.create.ruby.xml'));
    expect(xml.sessionId).toMatch(/^1_MX4x/);
    expect(xml.projectId).toBe('123456');
  });

  test('an empty session array is an unexpected response, not a crash', () => {
    expect(() => parseSessionCreateBody('[]')).toThrow(VideoApiError);
  });

  test('a schema mismatch names the field', () => {
    expect(() => parseJson(archiveSchema, '{"id":"a"}')).toThrow(/unexpected response: sessionId/);
  });
});

describe('resourceSchema', () => {
  const wire = z.looseObject({ id: z.string(), createdAt: z.number(), partnerId: z.union([z.string(), z.number()]).optional() });
  const schema = resourceSchema(wire, (raw) => ({
    id: raw.id,
    createdAt: raw.createdAt * 1000,
    projectId: raw.partnerId === undefined ? undefined : String(raw.partnerId),
  }));

  test('builds the resource from the checked fields and keeps the unnamed ones, after the built ones', () => {
    const body = { extra: { nested: true }, id: 'a', partnerId: 7, createdAt: 2, later: 'x' };
    const resource = parseJson(schema, JSON.stringify(body));
    expect(resource).toEqual({ id: 'a', createdAt: 2000, projectId: '7', extra: { nested: true }, later: 'x' });
    expect(Object.keys(resource)).toEqual(['id', 'createdAt', 'projectId', 'extra', 'later']);
    expect(resource).not.toHaveProperty('partnerId');
  });

  test('every parse builds its own object; a mismatch names the field', () => {
    const body = '{"id":"a","createdAt":1}';
    expect(parseJson(schema, body)).not.toBe(parseJson(schema, body));
    expect(() => parseJson(schema, '{"id":"a","createdAt":"soon"}')).toThrow(/unexpected response: createdAt/);
    expect(() => parseJson(schema, '[]')).toThrow(/unexpected response: \(root\)/);
  });
});
