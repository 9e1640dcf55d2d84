import { decodeProtectedHeader, jwtVerify } from 'jose';
import { Kind } from 'graphql';
import {
  collectAll,
  describeInsightsCode,
  InsightsClient,
  InsightsError,
  INSIGHTS_RETRY_FAST,
  INSIGHTS_RETRY_NONE,
  SlidingWindowLimiter,
  type InsightsClientOptions,
} from '../../src/api/insights';
import { FakeClock, flush } from './fakeClock';
import { argKind, argsOf, selectedUnder, startFakeInsights, type FakeInsights } from './fakeInsights';

const SECRET = 'project-secret-0123456789abcdef';
const PROJECT = '46123456';
const START = Date.UTC(2026, 9, 26, 7); // Mon 26 Oct 2026 00:00 PDT
const END = Date.UTC(2026, 10, 2, 8); // Mon 2 Nov 2026 00:00 PST

let server: FakeInsights;
let clock: FakeClock;
const clients: InsightsClient[] = [];

beforeEach(async () => {
  server = await startFakeInsights();
  clock = new FakeClock();
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await server.close();
});

function client(overrides: Partial<InsightsClientOptions> = {}): InsightsClient {
  const c = new InsightsClient({
    insightsUrl: server.url,
    projectId: PROJECT,
    apiSecret: SECRET,
    clock,
    limiter: new SlidingWindowLimiter({ clock }),
    retry: INSIGHTS_RETRY_FAST,
    random: () => 0.5,
    ...overrides,
  });
  clients.push(c);
  return c;
}

function metric(day: number, published = 10) {
  return {
    intervalStart: new Date(START + day * 86_400_000).toISOString(),
    intervalEnd: new Date(START + (day + 1) * 86_400_000 - 1).toISOString(),
    sdkType: null,
    usage: { streamedPublishedMinutes: published, streamedSubscribedMinutes: published * 2, participantMinutes: { from1To2Publishers: published } },
  };
}

const usagePage = (resources: unknown[], hasNextPage = false, endCursor: string | null = null) => ({
  json: { data: { project: { projectData: { pageInfo: { hasNextPage, endCursor }, resources } } } },
});

describe('InsightsClient: request and authentication', () => {
  it('POSTs {query} as JSON to {insightsUrl}/graphql with a fresh project JWT', async () => {
    server.setHandler(() => usagePage([metric(0)]));
    const c = client({ insightsUrl: `${server.url}/` });
    await c.projectUsagePage({ start: START, end: END, interval: 'DAILY' });
    await c.projectUsagePage({ start: START, end: END, interval: 'DAILY' });

    const [first, second] = server.requests;
    expect(first!.method).toBe('POST');
    expect(first!.path).toBe('/graphql');
    expect(first!.headers['content-type']).toBe('application/json');
    expect(Object.keys(first!.body)).toEqual(['query']);

    const token = String(first!.headers['x-service-auth']);
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: 'HS256', typ: 'JWT' });
    const { payload } = await jwtVerify(token, new TextEncoder().encode(SECRET), {
      algorithms: ['HS256'],
      currentDate: new Date(clock.now()),
    });
    expect(payload.iss).toBe(PROJECT);
    expect(payload.ist).toBe('project');
    expect(payload.iat).toBe(Math.floor(clock.now() / 1000));
    expect(payload.exp).toBe(payload.iat! + 180);
    expect(typeof payload.jti).toBe('string');

    const secondToken = String(second!.headers['x-service-auth']);
    const { payload: p2 } = await jwtVerify(secondToken, new TextEncoder().encode(SECRET), { currentDate: new Date(clock.now()) });
    expect(p2.jti).not.toBe(payload.jti);
  });

  it('sends the project ID as an integer when numeric, and as a string otherwise', async () => {
    server.setHandler(() => usagePage([]));
    await client().projectUsagePage({ start: START });
    await client({ projectId: 'abc-key' }).projectUsagePage({ start: START });
    expect(argKind(server.requests[0]!.document, 'project', 'projectId')).toBe(Kind.INT);
    expect(argsOf(server.requests[0]!.document, 'project')).toEqual({ projectId: 46123456 });
    expect(argKind(server.requests[1]!.document, 'project', 'projectId')).toBe(Kind.STRING);
    expect(argsOf(server.requests[1]!.document, 'project')).toEqual({ projectId: 'abc-key' });
  });

  it('builds projectData arguments as literals: ISO times, enums, filters', async () => {
    server.setHandler(() => usagePage([]));
    await client().projectUsagePage({
      start: START,
      end: END,
      interval: 'DAILY',
      sdkType: ['js', 'ANDROID'],
      groupBy: 'COUNTRY',
      filters: { country: ['us', 'FR'], sdkVersion: ['2.27.1'], browserVersion: ['118.0'] },
      first: 500,
    });
    const doc = server.requests[0]!.document;
    expect(argsOf(doc, 'projectData')).toEqual({
      start: '2026-10-26T07:00:00.000Z',
      end: '2026-11-02T07:59:59.999Z',
      interval: 'DAILY',
      sdkType: ['JS', 'ANDROID'],
      groupBy: 'COUNTRY',
      country: ['US', 'FR'],
      sdkVersion: ['2.27.1'],
      browserVersion: ['118.0'],
      first: 500,
    });
    expect(argKind(doc, 'projectData', 'groupBy')).toBe(Kind.ENUM);
    expect(selectedUnder(doc, ['project', 'projectData', 'resources'])).toEqual(['intervalStart', 'intervalEnd', 'sdkType', 'country', 'usage']);
    // SDK filters make participant minutes unavailable: they are not asked for.
    expect(selectedUnder(doc, ['project', 'projectData', 'resources', 'usage'])).toEqual(['streamedPublishedMinutes', 'streamedSubscribedMinutes']);
  });

  it('parses metrics loosely and normalises timestamps and null minutes', async () => {
    server.setHandler(() =>
      usagePage([
        {
          intervalStart: START,
          intervalEnd: '2026-10-27T06:59:59.999Z',
          sdkType: 'JS',
          extra: 'ignored',
          usage: { streamedPublishedMinutes: null, streamedSubscribedMinutes: 4.5, participantMinutes: null },
        },
        { intervalStart: String(Math.floor(START / 1000)), usage: null },
      ]),
    );
    const page = await client().projectUsagePage({ start: START });
    expect(page.items[0]).toMatchObject({
      intervalStart: START,
      intervalEnd: Date.UTC(2026, 9, 27, 6, 59, 59, 999),
      sdkType: 'JS',
      usage: { streamedPublishedMinutes: 0, streamedSubscribedMinutes: 4.5, participantMinutes: null },
    });
    expect(page.items[1]).toMatchObject({ intervalStart: START, intervalEnd: null, usage: { streamedPublishedMinutes: 0 } });
  });
});

describe('InsightsClient: pagination', () => {
  it('follows pageInfo.endCursor across pages', async () => {
    const all = Array.from({ length: 2_500 }, (_, i) => metric(i % 7, i));
    server.setHandler((req) => {
      const args = argsOf(req.document, 'projectData')!;
      const offset = args['endCursor'] === undefined ? 0 : Number(String(args['endCursor']).replace('cursor-', ''));
      const size = Number(args['first']);
      const next = offset + size;
      return usagePage(all.slice(offset, next), next < all.length, next < all.length ? `cursor-${next}` : null);
    });
    const items = await collectAll(client().projectUsage({ start: START, end: END, interval: 'DAILY' }));
    expect(items).toHaveLength(2_500);
    expect(items.map((m) => m.usage.streamedPublishedMinutes)).toEqual(all.map((_, i) => i));
    expect(server.requests.map((r) => argsOf(r.document, 'projectData')!['endCursor'])).toEqual([undefined, 'cursor-1000', 'cursor-2000']);
    expect(server.requests.every((r) => argsOf(r.document, 'projectData')!['first'] === 1_000)).toBe(true);
  });

  it('gives whole pages through pages()', async () => {
    server.setHandler((_req, i) => usagePage([metric(i)], i < 2, i < 2 ? `c${i}` : null));
    const sizes: number[] = [];
    for await (const page of client().projectUsage({ start: START }).pages()) sizes.push(page.items.length);
    expect(sizes).toEqual([1, 1, 1]);
  });

  it('stops with an error when a page claims more but repeats its cursor', async () => {
    server.setHandler(() => usagePage([metric(0)], true, 'same'));
    await expect(collectAll(client().projectUsage({ start: START }))).rejects.toMatchObject({ code: 'MALFORMED_RESPONSE' });
    expect(server.requests).toHaveLength(2);
  });

  it('pages session summaries and keeps meeting totals', async () => {
    server.setHandler((req, i) => {
      const args = argsOf(req.document, 'sessionSummaries')!;
      expect(args['start']).toBe('2026-10-26T07:00:00.000Z');
      const meetings = {
        resources: [
          {
            participantMinutes: 30 + i,
            publisherMinutes: 10,
            subscriberMinutes: 20,
            maxConcurrentStreams: 3,
            totalStreams: 4,
            totalConnections: 5,
            maxConcurrentSubscribers: 2,
          },
        ],
      };
      return {
        json: {
          data: {
            project: {
              sessionData: {
                sessionSummaries: {
                  pageInfo: { hasNextPage: i === 0, endCursor: i === 0 ? 'next' : null },
                  resources: [{ sessionId: `s${i}`, meetings }],
                },
              },
            },
          },
        },
      };
    });
    const summaries = await collectAll(client().sessionSummaries({ start: START, end: END }));
    expect(summaries.map((s) => s.sessionId)).toEqual(['s0', 's1']);
    expect(summaries[1]!.meetings.resources[0]).toMatchObject({ participantMinutes: 31, totalConnections: 5 });
    expect(argsOf(server.requests[1]!.document, 'sessionSummaries')!['endCursor']).toBe('next');
    expect(argsOf(server.requests[0]!.document, 'meetings')).toEqual({ first: 200 });
  });

  it('splits session detail requests to stay under 500,000 nodes', async () => {
    server.setHandler((req) => {
      const ids = argsOf(req.document, 'sessions')!['sessionIds'] as string[];
      return {
        json: {
          data: {
            project: {
              sessionData: {
                sessions: {
                  resources: ids.map((sessionId) => ({
                    sessionId,
                    meetings: {
                      totalCount: 1,
                      resources: [
                        {
                          createdAt: '2026-10-27T16:00:00.000Z',
                          destroyedAt: '2026-10-27T17:00:00.000Z',
                          publisherMinutes: 60,
                          publishers: {
                            totalCount: 1,
                            resources: [
                              {
                                connectionId: 'c1',
                                stream: { streamId: 'st1' },
                                streamStatsCollection: {
                                  resources: [{ createdAt: '2026-10-27T16:00:30.000Z', videoBitrateKbps: 6.61, audioBitrateKbps: null }],
                                },
                              },
                            ],
                          },
                          subscribers: null,
                        },
                      ],
                    },
                  })),
                },
              },
            },
          },
        },
      };
    });
    const ids = Array.from({ length: 25 }, (_, i) => `session-${i}`);
    const sessions = await client().sessions(ids);
    expect(sessions.map((s) => s.sessionId)).toEqual(ids);
    expect(server.requests.map((r) => (argsOf(r.document, 'sessions')!['sessionIds'] as string[]).length)).toEqual([10, 10, 5]);
    const publisher = sessions[0]!.meetings.resources[0]!.publishers.resources[0]!;
    expect(publisher.stream.streamId).toBe('st1');
    expect(publisher.streamStatsCollection.resources[0]).toEqual({
      createdAt: Date.UTC(2026, 9, 27, 16, 0, 30),
      videoBitrateKbps: 6.61,
      audioBitrateKbps: null,
    });
    expect(sessions[0]!.meetings.resources[0]!.subscribers.resources).toEqual([]);
  });
});

describe('InsightsClient: errors', () => {
  const codes = Array.from({ length: 23 }, (_, i) => 1000 + i);

  it.each(codes)('errorCode %i becomes an InsightsError with its own sentence', async (code) => {
    server.setHandler(() => ({
      json: { data: null, errors: [{ message: 'start must be before end', locations: [{ line: 3, column: 5 }], path: ['project'], errorCode: code }] },
    }));
    const error = await client({ retry: INSIGHTS_RETRY_NONE })
      .projectUsagePage({ start: START })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InsightsError);
    expect(error).toMatchObject({ code, status: 200, serverMessage: 'start must be before end' });
    expect((error as InsightsError).message).toBe(describeInsightsCode(code, 'start must be before end'));
  });

  it('gives every code 1000–1022 a distinct sentence', () => {
    const sentences = codes.map((c) => describeInsightsCode(c));
    expect(new Set(sentences).size).toBe(codes.length);
    for (const s of sentences) expect(s).toMatch(/^[A-Z].+\.$/);
  });

  it('words the add-on and date-range errors for people', async () => {
    server.setHandler(() => ({
      json: { errors: [{ message: 'project sessionData: This query requires the Advanced Insights add-on', errorCode: 1014 }] },
    }));
    await expect(client().sessionSummariesPage({ start: START })).rejects.toThrow('Per-session data needs the Advanced Insights add-on on this project.');
    server.setHandler(() => ({ json: { errors: [{ message: 'Start date must be before end date.', errorCode: '1002' }] } }));
    await expect(client().projectUsagePage({ start: START })).rejects.toThrow('The date range is invalid: Start date must be before end date.');
    server.setHandler(() => ({ json: { errors: [{ message: 'bad', extensions: { errorCode: 1007 } }] } }));
    await expect(client().projectUsagePage({ start: START })).rejects.toMatchObject({ code: 1007 });
  });

  it('turns HTTP failures into InsightsError with the status', async () => {
    server.setHandler(() => ({ status: 403, text: 'Forbidden' }));
    await expect(client().projectUsagePage({ start: START })).rejects.toMatchObject({
      name: 'InsightsError',
      code: 'HTTP_ERROR',
      status: 403,
      message: 'Insights refused the credentials (HTTP 403). Check the project ID and secret.',
    });
    expect(server.requests).toHaveLength(1);
  });

  it('never lets the secret or the token into an error', async () => {
    server.setHandler((req) => ({
      status: 400,
      json: { errors: [{ message: `bad token ${String(req.headers['x-service-auth'])} for secret ${SECRET}`, errorCode: 1011 }] },
    }));
    const error = (await client()
      .projectUsagePage({ start: START })
      .catch((e: unknown) => e)) as InsightsError;
    const token = String(server.requests[0]!.headers['x-service-auth']);
    const everything = [error.message, error.serverMessage, JSON.stringify(error), JSON.stringify(error.errors), String(error.stack)].join(' ');
    expect(everything).not.toContain(SECRET);
    expect(everything).not.toContain(token);
    expect(error.serverMessage).toBe('bad token [token] for secret [secret]');

    server.setHandler(() => ({ status: 500, text: `oops ${SECRET}` }));
    const httpError = (await client({ retry: INSIGHTS_RETRY_NONE })
      .projectUsagePage({ start: START })
      .catch((e: unknown) => e)) as InsightsError;
    expect(JSON.stringify({ m: httpError.message, s: httpError.serverMessage })).not.toContain(SECRET);
  });

  it('reports an answer that does not match the expected shape', async () => {
    server.setHandler(() => ({ json: { data: { project: { projectData: { resources: [{ usage: { streamedPublishedMinutes: 'many' } }] } } } } }));
    await expect(client().projectUsagePage({ start: START })).rejects.toMatchObject({ code: 'MALFORMED_RESPONSE' });
    server.setHandler(() => ({ text: '<html>gateway</html>' }));
    await expect(client().projectUsagePage({ start: START })).rejects.toMatchObject({ code: 'MALFORMED_RESPONSE' });
  });

  it('refuses bad arguments before sending anything', async () => {
    const c = client();
    await expect(c.projectUsagePage({ start: START, filters: { sdkVersion: ['2.27'] } })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(c.projectUsagePage({ start: START, filters: { country: ['US] ) { hacked'] } })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(c.projectUsagePage({ start: END, end: START })).rejects.toThrow('The end of the range must come after its start.');
    await expect(c.projectUsagePage({ start: START, first: 600_000 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(c.sessions([])).rejects.toThrow('Give at least one session ID.');
    expect(server.requests).toHaveLength(0);
  });
});

describe('InsightsClient: retries', () => {
  it('retries 5xx and succeeds', async () => {
    server.setHandler((_req, i) => (i < 2 ? { status: 503, text: 'busy' } : usagePage([metric(0)])));
    const page = await client().projectUsagePage({ start: START });
    expect(page.items).toHaveLength(1);
    expect(server.requests).toHaveLength(3);
    // Each attempt is signed afresh.
    expect(new Set(server.requests.map((r) => r.headers['x-service-auth'])).size).toBe(3);
  });

  it('gives up after maxRetries with the last error', async () => {
    server.setHandler(() => ({ status: 502, text: 'bad gateway' }));
    await expect(client().projectUsagePage({ start: START })).rejects.toMatchObject({ status: 502 });
    expect(server.requests).toHaveLength(3);
    await expect(client().projectUsagePage({ start: START }, { maxRetries: 0 })).rejects.toMatchObject({ status: 502 });
    expect(server.requests).toHaveLength(4);
  });

  it('retries errorCode 1012 (internal error) but not a client error', async () => {
    server.setHandler((_req, i) => (i === 0 ? { json: { errors: [{ message: 'internal', errorCode: 1012 }] } } : usagePage([])));
    await client().projectUsagePage({ start: START });
    expect(server.requests).toHaveLength(2);

    server.setHandler(() => ({ json: { errors: [{ message: 'bad', errorCode: 1005 }] } }));
    await expect(client().projectUsagePage({ start: START })).rejects.toMatchObject({ code: 1005 });
    expect(server.requests).toHaveLength(3);
  });

  it('retries a dropped connection', async () => {
    server.setHandler((_req, i) => (i === 0 ? { destroy: true } : usagePage([metric(0)])));
    const page = await client().projectUsagePage({ start: START });
    expect(page.items).toHaveLength(1);
    expect(server.requests).toHaveLength(2);
  });

  it('reports an unreachable service as a network error', async () => {
    const url = server.url;
    await server.close();
    server = await startFakeInsights();
    const c = client({ insightsUrl: url, retry: INSIGHTS_RETRY_NONE });
    await expect(c.projectUsagePage({ start: START })).rejects.toMatchObject({ code: 'NETWORK_ERROR' });
  });

  it('waits the Retry-After of a 429 on the injected clock', async () => {
    server.setHandler((_req, i) => (i === 0 ? { status: 429, text: 'slow down', headers: { 'retry-after': '2' } } : usagePage([])));
    const done = client().projectUsagePage({ start: START });
    expect(await clock.nextSleep()).toBe(2_000);
    expect(server.requests).toHaveLength(1);
    await clock.advance(2_000);
    await done;
    expect(server.requests).toHaveLength(2);
  });

  it('backs off exponentially with jitter on the injected clock', async () => {
    server.setHandler((_req, i) => (i < 2 ? { status: 500, text: '' } : usagePage([])));
    const c = client({ retry: { maxRetries: 2, baseDelayMs: 100, maxDelayMs: 1_000 }, random: () => 1 });
    const done = c.projectUsagePage({ start: START });
    expect(await clock.nextSleep()).toBe(100);
    await clock.advance(100);
    expect(await clock.nextSleep()).toBe(200);
    await clock.advance(200);
    await done;
    expect(server.requests).toHaveLength(3);
  });
});

describe('InsightsClient: cancellation', () => {
  it('reports a cancelled request as ABORTED, whether queued or in flight', async () => {
    const queued = new AbortController();
    queued.abort();
    await expect(client().projectUsagePage({ start: START }, { signal: queued.signal })).rejects.toMatchObject({ code: 'ABORTED' });
    expect(server.requests).toHaveLength(0);

    const inFlight = new AbortController();
    server.setHandler(() => {
      inFlight.abort();
      return usagePage([]);
    });
    await expect(client().projectUsagePage({ start: START }, { signal: inFlight.signal })).rejects.toMatchObject({ code: 'ABORTED' });
  });
});

describe('InsightsClient: rate limit', () => {
  it('sends at most 99 requests per 30 s for one key, across clients', async () => {
    server.setHandler(() => usagePage([]));
    const limiter = new SlidingWindowLimiter({ clock });
    const a = client({ limiter });
    const b = client({ limiter });
    const calls = Array.from({ length: 101 }, (_, i) => (i % 2 === 0 ? a : b).projectUsagePage({ start: START }));
    await Promise.all(calls.slice(0, 99));
    await flush();
    expect(server.requests).toHaveLength(99);
    expect(clock.pendingSleeps()).toBe(1);

    await clock.advance(29_999);
    expect(server.requests).toHaveLength(99);
    await clock.advance(1);
    await Promise.all(calls);
    expect(server.requests).toHaveLength(101);
  });
});
