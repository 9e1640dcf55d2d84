import {
  type Fetched,
  type ListScan,
  type PollRequest,
  applyResults,
  emptyFetched,
  naiveRequestCount,
  planFallbacks,
  planRequests,
  wantsNextPage,
} from '../../src/poller/batch';
import { GONE, type Snapshot, type WatchKind } from '../../src/poller/snapshot';
import type { Watch } from '../../src/poller/watch';
import { archive, broadcast } from './fakes';

const config = { pageSize: 1000, maxScanPages: 10 };

function watch(kind: WatchKind, resourceId: string, sessionId: string, createdAt: number | null = 1_000): Watch {
  const lastState: Snapshot | undefined =
    createdAt === null
      ? undefined
      : kind === 'captions'
        ? { status: 'active', startedAt: createdAt, maxDurationS: 300 }
        : kind === 'sip'
          ? { status: 'dialing', streamId: `st-${resourceId}`, dialedAt: createdAt }
          : kind === 'audio'
            ? { status: 'waiting' }
            : kind === 'session-discovery'
              ? { status: 'watching' }
              : { status: 'started', createdAt, durationS: 0, sizeBytes: 0 };
  return {
    id: `w-${kind}-${resourceId}`,
    teamId: 'T1',
    channelId: 'C1',
    projectName: 'prod',
    kind,
    resourceId,
    sessionId,
    lastState,
    lastChangeAt: 0,
    nextPollAt: 0,
    createdAt: 0,
    expiresAt: Infinity,
    failures: 0,
    revision: 0,
    repollRequested: false,
  };
}

const summary = (requests: PollRequest[]) =>
  requests.map((r) =>
    r.type === 'scan'
      ? `scan ${r.kind}${r.sessionId ? ` ${r.sessionId}` : ''} [${[...r.wanted.keys()].join(',')}]`
      : r.type === 'get'
        ? `get ${r.kind} ${r.id}`
        : `streams ${r.sessionId}`,
  );

describe('planRequests', () => {
  it('reads a single archive with one GET', () => {
    expect(summary(planRequests([watch('archive', 'A1', 'S1')], config).requests)).toEqual(['get archive A1']);
  });

  it('reads several archives of one session with one filtered list, stopping past the oldest', () => {
    const plan = planRequests([watch('archive', 'A1', 'S1', 5_000), watch('archive', 'A2', 'S1', 3_000), watch('archive', 'A3', 'S1', 4_000)], config);
    expect(summary(plan.requests)).toEqual(['scan archive S1 [A1,A2,A3]']);
    expect(plan.requests[0]).toMatchObject({ stopBefore: 3_000, pageSize: 1000, maxPages: 10, collect: false });
    expect(plan.estimatedRequests).toBe(1);
  });

  it('reads archives spread over many sessions with unfiltered pages', () => {
    const watches = ['S1', 'S2', 'S3', 'S4', 'S5'].flatMap((s, i) => [watch('archive', `A${i}a`, s), watch('archive', `A${i}b`, s)]);
    const plan = planRequests(watches, config);
    expect(summary(plan.requests)).toEqual(['scan archive [A0a,A0b,A1a,A1b,A2a,A2b,A3a,A3b,A4a,A4b]']);
    expect(plan.estimatedRequests).toBe(1);
  });

  it('switches to one list per session when the unfiltered list proved deeper than that', () => {
    const watches = [watch('archive', 'A1', 'S1'), watch('archive', 'A2', 'S1'), watch('archive', 'A3', 'S2')];
    const plan = planRequests(watches, config, { scanPages: new Map([['archive', 4]]) });
    expect(summary(plan.requests)).toEqual(['scan archive S1 [A1,A2]', 'get archive A3']);
    expect(plan.estimatedRequests).toBe(2);
  });

  it('does not stop early by time when a watched item has no known createdAt', () => {
    const plan = planRequests([watch('archive', 'A1', 'S1', null), watch('archive', 'A2', 'S1')], config);
    expect((plan.requests[0] as ListScan).stopBefore).toBeUndefined();
  });

  it('reads broadcasts through their list the same way', () => {
    const plan = planRequests([watch('broadcast', 'B1', 'S1'), watch('broadcast', 'B2', 'S2'), watch('broadcast', 'B3', 'S3')], config);
    expect(summary(plan.requests)).toEqual(['scan broadcast [B1,B2,B3]']);
  });

  it('pages composers only while that is cheaper than a GET each', () => {
    expect(summary(planRequests([watch('render', 'R1', 'S1')], config).requests)).toEqual(['get render R1']);
    const three = [watch('render', 'R1', 'S1'), watch('render', 'R2', 'S2'), watch('render', 'R3', 'S3')];
    const plan = planRequests(three, config);
    expect(summary(plan.requests)).toEqual(['scan render [R1,R2,R3]']);
    expect(plan.requests[0]).toMatchObject({ maxPages: 2 });
    expect((plan.requests[0] as ListScan).stopBefore).toBeUndefined();
    expect(summary(planRequests(three, config, { scanPages: new Map([['render', 3]]) }).requests)).toEqual(['get render R1', 'get render R2', 'get render R3']);
  });

  it('shares one stream list per session between SIP calls and audio connections', () => {
    const plan = planRequests([watch('sip', 'call1', 'S1'), watch('audio', 'ac1', 'S1'), watch('sip', 'call2', 'S2')], config);
    expect(summary(plan.requests)).toEqual(['streams S1', 'streams S2']);
  });

  it('makes no request for captions', () => {
    expect(planRequests([watch('captions', 'cap', 'S1')], config)).toEqual({ requests: [], estimatedRequests: 0 });
  });

  it('lists a discovered session once and lets its watched archives ride along', () => {
    const plan = planRequests(
      [watch('session-discovery', 'S1', 'S1'), watch('archive', 'A1', 'S1'), watch('broadcast', 'B1', 'S1'), watch('archive', 'A9', 'S9')],
      config,
    );
    expect(summary(plan.requests)).toEqual(['scan archive S1 [A1]', 'scan broadcast S1 [B1]', 'get archive A9']);
    expect(plan.requests[0]).toMatchObject({ collect: true, maxPages: 1 });
  });

  it('reads by GET what a scan left unread last time', () => {
    const plan = planRequests([watch('broadcast', 'B1', 'S1'), watch('broadcast', 'B2', 'S2'), watch('broadcast', 'B3', 'S3')], config, {
      readByGet: new Set(['broadcast:B2']),
    });
    expect(summary(plan.requests)).toEqual(['get broadcast B2', 'scan broadcast [B1,B3]']);
  });

  it('needs a handful of requests where one GET per watch would need ten thousand', () => {
    const watches = Array.from({ length: 10_000 }, (_, i) => watch('archive', `A${i}`, `S${i % 100}`, 1_000 + i));
    const plan = planRequests(watches, config);
    expect(plan.estimatedRequests).toBe(1);
    expect(naiveRequestCount(watches)).toBe(10_000);
  });
});

describe('naiveRequestCount', () => {
  it('counts a GET per listed resource, a stream list per call, two lists per discovery and nothing for captions', () => {
    const watches = [watch('archive', 'A', 'S'), watch('sip', 'c', 'S'), watch('session-discovery', 'S', 'S'), watch('captions', 'x', 'S')];
    expect(naiveRequestCount(watches)).toBe(4);
  });
});

describe('wantsNextPage', () => {
  const scan = (extra: Partial<ListScan> = {}): ListScan => ({
    type: 'scan',
    kind: 'archive',
    wanted: new Map([['x', false]]),
    pageSize: 2,
    maxPages: 3,
    collect: false,
    ...extra,
  });
  const page = (...createdAt: number[]) => visited(100, createdAt);
  const visited = (count: number, createdAt: number[]) => ({
    count,
    length: createdAt.length,
    last: createdAt.length === 0 ? undefined : { createdAt: createdAt[createdAt.length - 1]! },
  });

  it.each<[string, ListScan, number, ReturnType<typeof page>, number, number, boolean]>([
    ['everything found', scan(), 1, page(9, 8), 2, 0, false],
    ['still missing, full page', scan(), 1, page(9, 8), 2, 1, true],
    ['short page: end of the list', scan(), 1, page(9), 1, 1, false],
    ['offset reached the total', scan(), 1, visited(2, [9, 8]), 2, 1, false],
    ['page limit reached', scan(), 3, page(9, 8), 6, 1, false],
    ['past the oldest wanted', scan({ stopBefore: 8.5 }), 1, page(9, 8), 2, 1, false],
    ['not yet past the oldest wanted', scan({ stopBefore: 8 }), 1, page(9, 8), 2, 1, true],
    ['collecting keeps going while pages are full', scan({ collect: true, maxPages: 5 }), 1, page(9, 8), 2, 0, true],
  ])('%s', (_name, s, pagesRead, p, offsetAfter, missing, expected) => {
    expect(wantsNextPage(s, pagesRead, p, offsetAfter, missing)).toBe(expected);
  });
});

describe('planFallbacks and applyResults', () => {
  const scanOf = (kind: 'archive' | 'broadcast', wanted: string[]): ListScan => ({
    type: 'scan',
    kind,
    wanted: new Map(wanted.map((id) => [id, false])),
    pageSize: 1000,
    maxPages: 1,
    collect: false,
  });

  it('GETs what the scans did not find, once each', () => {
    const fetched: Fetched = emptyFetched();
    fetched.resources.archive.set('A1', archive({ id: 'A1' }));
    fetched.absent.archive.add('A3');
    const gets = planFallbacks([scanOf('archive', ['A1', 'A2', 'A3']), scanOf('archive', ['A2']), scanOf('broadcast', ['B1'])], fetched);
    expect(gets).toEqual([
      { type: 'get', kind: 'archive', id: 'A2' },
      { type: 'get', kind: 'broadcast', id: 'B1' },
    ]);
  });

  it('maps what was read back onto each watch and leaves out what was not read', () => {
    const fetched = emptyFetched();
    fetched.resources.archive.set('A1', archive({ id: 'A1', status: 'paused' }));
    fetched.absent.render.add('R1');
    fetched.streams.set('S1', [{ id: 'st-call' }]);
    fetched.sessionItems.set('archive:S1', [archive({ id: 'A1' })]);
    fetched.sessionItems.set('broadcast:S1', [broadcast({ id: 'B1' })]);
    const watches = [
      watch('archive', 'A1', 'S1'),
      watch('archive', 'A2', 'S1'),
      watch('render', 'R1', 'S1'),
      watch('sip', 'call', 'S1'),
      watch('audio', 'ac', 'S2'),
      watch('captions', 'cap', 'S1'),
      watch('session-discovery', 'S1', 'S1'),
    ];
    const observed = applyResults(watches, fetched);
    expect([...observed.keys()]).toEqual(['w-archive-A1', 'w-render-R1', 'w-sip-call', 'w-captions-cap', 'w-session-discovery-S1']);
    expect(observed.get('w-archive-A1')).toMatchObject({ status: 'paused' });
    expect(observed.get('w-render-R1')).toBe(GONE);
    expect(observed.get('w-sip-call')).toEqual({ streamIds: ['st-call'] });
    expect(observed.get('w-captions-cap')).toBeNull();
    expect(observed.get('w-session-discovery-S1')).toMatchObject({ archives: [{ id: 'A1' }], broadcasts: [{ id: 'B1' }] });
  });
});
