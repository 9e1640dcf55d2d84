import { ArrayItems } from '../../src/api/lists';
import { type ListScan, type RequestPlan } from '../../src/poller/batch';
import { executePlan } from '../../src/poller/executor';
import type { ArchiveResource, ListQuery, PageItems } from '../../src/poller/resources';
import { FakeVideoService, archive, broadcast, render } from './fakes';

const T0 = 1_700_000_000_000;
const always = () => true;
const plan = (...requests: RequestPlan['requests']): RequestPlan => ({ requests, estimatedRequests: requests.length });
const scan = ({ wanted, ...extra }: Partial<Omit<ListScan, 'wanted'>> & Pick<ListScan, 'kind'> & { wanted: string[] }): ListScan => ({
  type: 'scan',
  pageSize: 1000,
  maxPages: 10,
  collect: false,
  ...extra,
  wanted: new Map(wanted.map((id) => [id, false])),
});

/** 2,500 archives, one per second, newest first at offset 0: `at(n)` is the id at offset n. */
function seededService(): { service: FakeVideoService; at: (offset: number) => string; createdAt: (offset: number) => number } {
  const service = new FakeVideoService(() => T0);
  for (let i = 0; i < 2_500; i += 1) service.putArchive('prod', archive({ id: `A${i}`, sessionId: `S${i % 7}`, createdAt: T0 + i * 1000 }));
  const at = (offset: number) => `A${2_499 - offset}`;
  return { service, at, createdAt: (offset) => T0 + (2_499 - offset) * 1000 };
}

describe('executePlan', () => {
  it('pages an unfiltered list only as deep as the wanted items', async () => {
    const { service, at } = seededService();
    const run = await executePlan('prod', plan(scan({ kind: 'archive', wanted: [at(10), at(1_500)] })), service, always);
    expect(service.calls.map((c) => c.op)).toEqual(['archives.list', 'archives.list']);
    expect(run.fetched.resources.archive.has(at(1_500))).toBe(true);
    expect(run).toMatchObject({ requestsMade: 2, budgetExhausted: false, unread: [] });
    expect(run.scanPages.get('archive')).toBe(2);
  });

  it('settles a page a piece at a time when the source hands its items over as they are parsed (listEach)', async () => {
    const { service, at } = seededService();
    const events: string[] = [];
    const source = Object.create(service) as FakeVideoService;
    Object.defineProperty(source, 'archives', {
      value: {
        ...service.archives,
        list: () => Promise.reject(new Error('read with listEach')),
        listEach: async (project: string, query: ListQuery, visit: (items: PageItems<ArchiveResource>) => void) => {
          const page = await service.archives.list(project, query);
          for (let start = 0; start < page.items.length; start += 400) {
            events.push(`piece at ${start}`);
            visit(new ArrayItems(page.items.slice(start, start + 400)));
          }
          return { count: page.count, length: page.items.length, last: page.items[page.items.length - 1] };
        },
      },
    });
    const settle = (_kind: string, items: PageItems<{ id: string }>, index: number) => {
      const id = items.id(index);
      if (id === at(0) || id === at(450) || id === at(1_200)) events.push(`settled ${id}`);
      return id !== at(1_200);
    };
    const request = scan({ kind: 'archive', wanted: [at(0), at(450), at(1_200)] });
    const run = await executePlan('prod', plan(request), source, always, settle);
    expect(events).toEqual([
      'piece at 0',
      `settled ${at(0)}`,
      'piece at 400',
      `settled ${at(450)}`,
      'piece at 800',
      // The second page (offset 1,000).
      'piece at 0',
      `settled ${at(1_200)}`,
      'piece at 400',
      'piece at 800',
    ]);
    // All three found; the two settled are not kept.
    expect([...request.wanted]).toEqual([
      [at(0), true],
      [at(450), true],
      [at(1_200), true],
    ]);
    expect([...run.fetched.resources.archive.keys()]).toEqual([at(1_200)]);
    expect(run.scanPages.get('archive')).toBe(2);
  });

  it.each([
    ['read', () => false],
    ['settled as it arrives', () => true],
  ])('counts an item a shifted list shows twice once, and reads on for the rest (%s)', async (_how, settle) => {
    const { service, at } = seededService();
    const [last, deep] = [at(999), at(2_100)];
    const source = Object.create(service) as FakeVideoService;
    // A recording starts between the first page and the second: the second begins with the first's last item.
    let pages = 0;
    Object.defineProperty(source, 'archives', {
      value: {
        ...service.archives,
        list: async (project: string, query: ListQuery) => {
          const page = await service.archives.list(project, query);
          if (++pages === 1) service.putArchive('prod', archive({ id: 'A-new', sessionId: 'S1', createdAt: T0 + 3_000_000 }));
          return page;
        },
      },
    });
    const request = scan({ kind: 'archive', wanted: [last, deep] });
    const run = await executePlan('prod', plan(request), source, always, settle);
    expect(service.calls.map((c) => c.op)).toEqual(['archives.list', 'archives.list', 'archives.list']);
    expect([...request.wanted.values()]).toEqual([true, true]);
    expect([...run.fetched.resources.archive.keys()].sort()).toEqual(settle() ? [] : [deep, last].sort());
    expect(run.unread).toEqual([]);
  });

  it('stops once a page ends before the oldest wanted item, then GETs what the list no longer holds', async () => {
    const { service, at, createdAt } = seededService();
    service.updateArchive('prod', at(5), { status: 'deleted' });
    const run = await executePlan('prod', plan(scan({ kind: 'archive', wanted: [at(5), at(2)], stopBefore: createdAt(5) })), service, always);
    expect(service.calls.map((c) => c.op)).toEqual(['archives.list', 'archives.get']);
    expect(run.fetched.resources.archive.get(at(5))).toMatchObject({ status: 'deleted' });
  });

  it('reads a watched broadcast that left the started list by GET', async () => {
    const service = new FakeVideoService();
    service.putBroadcast('prod', broadcast({ id: 'B1' }));
    service.putBroadcast('prod', broadcast({ id: 'B2', status: 'stopped', broadcastUrls: null }));
    const run = await executePlan('prod', plan(scan({ kind: 'broadcast', wanted: ['B1', 'B2', 'B3'] })), service, always);
    expect(service.calls.map((c) => c.op)).toEqual(['broadcasts.list', 'broadcasts.get', 'broadcasts.get']);
    expect(run.fetched.resources.broadcast.get('B2')).toMatchObject({ status: 'stopped' });
    expect(run.fetched.absent).toEqual({ archive: new Set(), broadcast: new Set(['B3']), render: new Set() });
  });

  it('keeps every item of a collecting scan for session discovery', async () => {
    const { service } = seededService();
    const run = await executePlan('prod', plan(scan({ kind: 'archive', wanted: [], sessionId: 'S3', maxPages: 1, collect: true })), service, always);
    const items = run.fetched.sessionItems.get('archive:S3') ?? [];
    expect(items.length).toBeGreaterThan(300);
    expect(items.every((a) => a.sessionId === 'S3')).toBe(true);
    expect(run.scanPages.size).toBe(0);
  });

  it('reads stream lists and composers', async () => {
    const service = new FakeVideoService();
    service.setStreams('prod', 'S1', ['st1', 'st2']);
    service.putRender('prod', render({ id: 'R1', status: 'started' }));
    const run = await executePlan(
      'prod',
      plan(
        { type: 'streams', sessionId: 'S1' },
        { type: 'streams', sessionId: 'S2' },
        { type: 'get', kind: 'render', id: 'R1' },
        { type: 'get', kind: 'render', id: 'R2' },
      ),
      service,
      always,
    );
    expect(run.fetched.streams).toEqual(
      new Map([
        ['S1', [{ id: 'st1' }, { id: 'st2' }]],
        ['S2', []],
      ]),
    );
    expect(run.fetched.resources.render.get('R1')).toMatchObject({ status: 'started' });
    expect(run.fetched.absent.render.has('R2')).toBe(true);
  });

  it('takes a token before every call and stops when the budget is empty, naming what the scan left unread', async () => {
    const service = new FakeVideoService();
    service.putBroadcast('prod', broadcast({ id: 'B1' }));
    service.putBroadcast('prod', broadcast({ id: 'B2', status: 'stopped' }));
    let tokens = 2;
    const run = await executePlan(
      'prod',
      plan(scan({ kind: 'broadcast', wanted: ['B1', 'B2', 'B3'] }), { type: 'get', kind: 'archive', id: 'A1' }),
      service,
      () => tokens-- > 0,
    );
    expect(run.requestsMade).toBe(2);
    expect(service.calls).toHaveLength(2);
    expect(run.budgetExhausted).toBe(true);
    expect(run.unread).toEqual(['broadcast:B2', 'broadcast:B3']);
  });

  it('records that a cut-short unfiltered scan needs more pages', async () => {
    const { service, at } = seededService();
    let tokens = 1;
    const run = await executePlan('prod', plan(scan({ kind: 'archive', wanted: [at(1_200)] })), service, () => tokens-- > 0);
    expect(run.scanPages.get('archive')).toBe(2);
  });

  it('stops at the first failure and keeps what it read before', async () => {
    const service = new FakeVideoService();
    service.putRender('prod', render({ id: 'R1' }));
    const run = await executePlan(
      'prod',
      plan({ type: 'get', kind: 'render', id: 'R1' }, { type: 'streams', sessionId: 'S1' }, { type: 'get', kind: 'render', id: 'R2' }),
      {
        ...service,
        archives: service.archives,
        broadcasts: service.broadcasts,
        renders: service.renders,
        streams: { list: async () => Promise.reject(new Error('HTTP 500')) },
      },
      always,
    );
    expect(run.failure).toEqual(new Error('HTTP 500'));
    expect(run.fetched.resources.render.has('R1')).toBe(true);
    expect(run.requestsMade).toBe(2);
    expect(service.calls.map((c) => c.op)).toEqual(['renders.get']);
  });

  describe('a read that failed in passing', () => {
    const passing = new Error('HTTP 503');
    /** The fake service, whose archive list fails first as `failures` say (items handed over before failing: `handed`). */
    function flaky(failures: unknown[], handed = 0) {
      const { service, at } = seededService();
      const source = Object.create(service) as FakeVideoService & { isPassing(error: unknown): boolean };
      source.isPassing = (error) => error === passing;
      let lists = 0;
      Object.defineProperty(source, 'archives', {
        value: {
          ...service.archives,
          listEach: async (project: string, query: ListQuery, visit: (items: PageItems<ArchiveResource>) => void) => {
            const page = await service.archives.list(project, query);
            const failure = failures[lists++];
            if (failure !== undefined) {
              if (handed > 0) visit(new ArrayItems(page.items.slice(0, handed)));
              throw failure;
            }
            visit(new ArrayItems(page.items));
            return { count: page.count, length: page.items.length, last: page.items[page.items.length - 1] };
          },
        },
      });
      return { source, at, lists: () => lists };
    }

    it('is read once more at once, for another token, and the run goes on', async () => {
      const { source, at, lists } = flaky([passing]);
      let tokens = 0;
      const run = await executePlan('prod', plan(scan({ kind: 'archive', wanted: [at(3)] })), source, () => ++tokens > 0);
      expect(run).toMatchObject({ requestsMade: 2, retried: 1, budgetExhausted: false });
      expect(run.failure).toBeUndefined();
      expect(run.fetched.resources.archive.has(at(3))).toBe(true);
      expect([lists(), tokens]).toEqual([2, 2]);
    });

    it.each([
      ['its second try fails too (no third)', [passing, passing], 0, passing],
      ['the failure is not in passing (no second try)', [new Error('HTTP 403')], 0, new Error('HTTP 403')],
      ['items were handed over before it failed (no second try)', [passing], 10, passing],
    ])('ends the run with the failure when %s', async (_name, failures, handed, failure) => {
      const { source, at, lists } = flaky(failures, handed);
      const run = await executePlan('prod', plan(scan({ kind: 'archive', wanted: [at(3)] })), source, always);
      expect(run.failure).toEqual(failure);
      expect(lists()).toBe(failures.length);
      expect(run.retried).toBe(failures.length - 1);
    });

    it('is not read again without a token', async () => {
      const { source, at, lists } = flaky([passing]);
      let tokens = 1;
      const run = await executePlan('prod', plan(scan({ kind: 'archive', wanted: [at(3)] })), source, () => tokens-- > 0);
      expect(run).toMatchObject({ failure: passing, requestsMade: 1, retried: 0, budgetExhausted: false });
      expect(lists()).toBe(1);
    });
  });
});
