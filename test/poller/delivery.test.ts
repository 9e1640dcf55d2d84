import { OutboxDeliverer, SlackDeliveryError, classifySlackError, findNotification, notificationMetadata } from '../../src/poller/delivery';
import { MemoryWatchStore } from '../../src/poller/memory-store';
import type { OutboxItem, WatchStore } from '../../src/poller/watch';
import { FakeSlack, silentLogger, storeWith } from './fakes';

const T0 = 1_700_000_000_000;

async function seed(store: MemoryWatchStore, items: OutboxItem[], watchId = 'w'): Promise<void> {
  await store.addWatch({
    id: watchId,
    teamId: 'T1',
    channelId: 'C1',
    projectName: 'prod',
    kind: 'archive',
    resourceId: watchId,
    sessionId: 'S1',
    lastState: undefined,
    lastChangeAt: T0,
    nextPollAt: 0,
    createdAt: T0,
    expiresAt: T0 + 86_400_000,
  });
  await store.claimDue('seed', Date.now(), 1, 1_000);
  await store.completePoll(watchId, 'seed', {
    polledAt: Date.now(),
    state: undefined,
    changed: false,
    nextPollAt: T0 + 86_400_000,
    ended: false,
    failures: 0,
    outbox: items,
  });
}

const reply = (key: string, channelId = 'C1', threadTs: string | undefined = '111.1'): OutboxItem => ({
  transitionKey: key,
  teamId: 'T1',
  channelId,
  ...(threadTs && { threadTs }),
  payload: { type: 'reply', text: `text ${key}` },
});

function deliverer(
  store: WatchStore,
  slack: FakeSlack,
  instanceId = 'd1',
  extra: Partial<ConstructorParameters<typeof OutboxDeliverer>[0]> = {},
): OutboxDeliverer {
  return new OutboxDeliverer({
    store,
    poster: slack,
    logger: silentLogger,
    instanceId,
    random: () => 0.5,
    retry: { baseMs: 2_000, maxMs: 60_000, jitterRatio: 0 },
    ...extra,
  });
}

beforeEach(() => {
  jest.useFakeTimers({ now: T0 });
});

afterEach(() => {
  jest.useRealTimers();
});

describe('OutboxDeliverer', () => {
  it('posts replies in the thread with the idempotency key in metadata and records the ts', async () => {
    const store = new MemoryWatchStore();
    const slack = new FakeSlack();
    await seed(store, [reply('a@0')]);
    const report = await deliverer(store, slack).deliverOnce();
    expect(report).toEqual({ claimed: 1, delivered: 1, recovered: 0, deferred: 0, discarded: 0 });
    expect(slack.posts).toEqual([
      expect.objectContaining({ channel: 'C1', threadTs: '111.1', text: 'text a@0', key: 'w:a@0', metadata: notificationMetadata('w:a@0') }),
    ]);
    expect((await store.listOutbox('w'))[0]).toMatchObject({ deliveredAt: T0, messageTs: slack.posts[0]!.ts });
  });

  it('updates cards with chat.update', async () => {
    const store = new MemoryWatchStore();
    const slack = new FakeSlack();
    await seed(store, [
      {
        transitionKey: 'card@0',
        teamId: 'T1',
        channelId: 'C1',
        payload: { type: 'card', messageTs: '111.1', text: 'Recording', blocks: [{ type: 'divider' }] },
      },
    ]);
    await deliverer(store, slack).deliverOnce();
    expect(slack.cardUpdates).toEqual([expect.objectContaining({ channel: 'C1', ts: '111.1', blocks: [{ type: 'divider' }] })]);
    expect((await store.listOutbox('w'))[0]).toMatchObject({ messageTs: '111.1' });
  });

  it('sends at most one message per channel per second, in order', async () => {
    const store = new MemoryWatchStore();
    const slack = new FakeSlack();
    await seed(store, [reply('a'), reply('b'), reply('x', 'C2'), reply('c'), reply('y', 'C2')]);
    const d = deliverer(store, slack);
    d.start();
    await jest.advanceTimersByTimeAsync(5_000);
    await d.stop();
    const byChannel = (channel: string) => slack.posts.filter((p) => p.channel === channel);
    expect(byChannel('C1').map((p) => [p.text, p.at - T0])).toEqual([
      ['text a', 0],
      ['text b', 1_000],
      ['text c', 2_000],
    ]);
    expect(byChannel('C2').map((p) => [p.text, p.at - T0])).toEqual([
      ['text x', 0],
      ['text y', 1_000],
    ]);
  });

  it("posts a paced reply when its channel's second is up, though a wake in between restarted the tick", async () => {
    const store = new MemoryWatchStore();
    const slack = new FakeSlack();
    await seed(store, [reply('a'), reply('b'), reply('c')]);
    const d = deliverer(store, slack, 'd1', { tickMs: 1_000 });
    d.start();
    await jest.advanceTimersByTimeAsync(500);
    d.wake(); // the poller found other changes: a round at 500 ms, with nothing for C1 yet
    await jest.advanceTimersByTimeAsync(1_000);
    d.wake();
    await jest.advanceTimersByTimeAsync(3_000);
    await d.stop();
    expect(slack.posts.map((p) => [p.text, p.at - T0])).toEqual([
      ['text a', 0],
      ['text b', 1_000],
      ['text c', 2_000],
    ]);
  });

  it("updates a reply's card with the reply, not a round later; the next reply waits for the channel's second", async () => {
    const store = new MemoryWatchStore();
    const slack = new FakeSlack();
    const card = (key: string, text: string): OutboxItem => ({
      transitionKey: key,
      teamId: 'T1',
      channelId: 'C1',
      payload: { type: 'card', messageTs: '111.1', text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] },
    });
    await seed(store, [reply('a'), card('card@0', 'Stopped'), reply('b'), card('card@1', 'Available'), reply('x', 'C2')]);
    const d = deliverer(store, slack);
    d.start();
    await jest.advanceTimersByTimeAsync(3_000);
    await d.stop();
    const sent = [
      ...slack.posts.map((p) => [p.channel, p.text, p.at - T0]),
      ...slack.cardUpdates.map((u) => [u.channel, (u.blocks[0] as { text: { text: string } }).text.text, u.at - T0]),
    ];
    expect(sent).toEqual([
      ['C1', 'text a', 0],
      ['C2', 'text x', 0],
      ['C1', 'text b', 1_000],
      ['C1', 'Stopped', 0],
      ['C1', 'Available', 1_000],
    ]);
    // In the order written: each card after the reply it goes with.
    expect((await store.listOutbox('w')).map((row) => [row.transitionKey, row.deliveredAt! - T0])).toEqual([
      ['a', 0],
      ['card@0', 0],
      ['b', 1_000],
      ['card@1', 1_000],
      ['x', 0],
    ]);
  });

  it('on a 429 holds back that channel until Retry-After, then delivers everything in order', async () => {
    const store = new MemoryWatchStore();
    const slack = new FakeSlack(() => Date.now(), 30_000);
    await seed(store, [reply('a'), reply('b'), reply('x', 'C2'), reply('y', 'C2')]);
    slack.failNext('rate-limited');
    const d = deliverer(store, slack);
    d.start();
    await jest.advanceTimersByTimeAsync(29_000);
    expect(slack.posts.map((p) => p.text)).toEqual(['text x', 'text y']);
    await jest.advanceTimersByTimeAsync(3_000);
    await d.stop();
    expect(slack.posts.map((p) => [p.text, p.at - T0])).toEqual([
      ['text x', 0],
      ['text y', 1_000],
      ['text a', 30_000],
      ['text b', 31_000],
    ]);
  });

  it('backs off on 5xx and delivers once Slack recovers', async () => {
    const store = new MemoryWatchStore();
    const slack = new FakeSlack();
    await seed(store, [reply('a')]);
    slack.failNext('server-error', 'server-error');
    const d = deliverer(store, slack);
    d.start();
    await jest.advanceTimersByTimeAsync(10_000);
    await d.stop();
    expect(slack.posts.map((p) => [p.key, p.at - T0])).toEqual([['w:a', 6_000]]);
    expect((await store.listOutbox('w'))[0]).toMatchObject({ attempts: 3, lastError: expect.stringContaining('500') });
  });

  it('does not post again when an earlier attempt reached Slack but its answer was lost', async () => {
    const store = new MemoryWatchStore();
    const slack = new FakeSlack();
    await seed(store, [reply('a'), reply('b')]);
    slack.failNext('timeout-after-post');
    const d = deliverer(store, slack);
    expect(await d.deliverOnce()).toMatchObject({ deferred: 1 });
    jest.setSystemTime(T0 + 5_000);
    expect(await d.deliverOnce()).toMatchObject({ recovered: 1, delivered: 0 });
    jest.setSystemTime(T0 + 6_000);
    await d.deliverOnce();
    expect(slack.keys()).toEqual(['w:a', 'w:b']);
    expect(slack.lookups).toEqual(['w:a']);
  });

  it('gives up a row Slack will never accept, so the channel moves on', async () => {
    const store = new MemoryWatchStore();
    const slack = new FakeSlack();
    await seed(store, [reply('a'), reply('b')]);
    slack.failNext('permanent');
    const d = deliverer(store, slack);
    expect(await d.deliverOnce()).toMatchObject({ discarded: 1 });
    jest.setSystemTime(T0 + 1_000);
    await d.deliverOnce();
    expect(slack.keys()).toEqual(['w:b']);
    expect((await store.listOutbox('w'))[0]).toMatchObject({ discardedAt: T0, lastError: 'channel_not_found' });
  });

  it('gives up after the maximum number of transient failures', async () => {
    const store = new MemoryWatchStore();
    const slack = new FakeSlack();
    await seed(store, [reply('a')]);
    slack.failNext('server-error', 'server-error');
    const d = deliverer(store, slack, 'd1', { maxAttempts: 2 });
    await d.deliverOnce();
    jest.setSystemTime(T0 + 60_000);
    expect(await d.deliverOnce()).toMatchObject({ discarded: 1 });
  });

  it('does not start a post with too little lease left; the row goes back at once', async () => {
    const store = new MemoryWatchStore();
    const slack = new FakeSlack();
    await seed(store, [reply('a')]);
    const slowClaims = storeWith(store, {
      claimOutbox: async (...args) => {
        const rows = await store.claimOutbox(...args);
        jest.setSystemTime(Date.now() + 50_000);
        return rows;
      },
    });
    expect(await deliverer(slowClaims, slack, 'd1', { leaseMs: 60_000, postTimeoutMs: 15_000 }).deliverOnce()).toMatchObject({ deferred: 1 });
    expect(slack.posts).toEqual([]);
    expect(await deliverer(store, slack, 'd2').deliverOnce()).toMatchObject({ delivered: 1 });
  });

  it('survives a crash between posting and recording it: the next deliverer finds the post', async () => {
    const store = new MemoryWatchStore();
    const slack = new FakeSlack();
    await seed(store, [reply('a')]);
    const killed = () => Promise.reject(new Error('process killed'));
    const crashed = storeWith(store, { markDelivered: killed, deferOutbox: killed });
    await deliverer(crashed, slack, 'd1').deliverOnce();
    expect(slack.posts).toHaveLength(1);
    jest.setSystemTime(T0 + 60_000);
    expect(await deliverer(store, slack, 'd2').deliverOnce()).toMatchObject({ recovered: 1 });
    expect(slack.posts).toHaveLength(1);
    expect((await store.listOutbox('w'))[0]).toMatchObject({ deliveredAt: T0 + 60_000, messageTs: slack.posts[0]!.ts, attempts: 2 });
  });

  it('refuses a lease shorter than a post', () => {
    expect(() => deliverer(new MemoryWatchStore(), new FakeSlack(), 'd', { leaseMs: 10_000, postTimeoutMs: 10_000 })).toThrow(RangeError);
  });
});

describe('classifySlackError', () => {
  it.each<[unknown, string, number | undefined]>([
    [new SlackDeliveryError('slow down', 'rate-limited', 7_000), 'rate-limited', 7_000],
    [{ code: 'slack_webapi_rate_limited_error', retryAfter: 12, message: 'rate limited' }, 'rate-limited', 12_000],
    [{ code: 'slack_webapi_http_error', statusCode: 429, headers: { 'retry-after': '3' } }, 'rate-limited', 3_000],
    [{ code: 'slack_webapi_http_error', statusCode: 503 }, 'transient', undefined],
    [{ code: 'slack_webapi_http_error', statusCode: 400 }, 'permanent', undefined],
    [{ code: 'slack_webapi_platform_error', data: { error: 'internal_error' } }, 'transient', undefined],
    [{ code: 'slack_webapi_platform_error', data: { error: 'not_in_channel' } }, 'permanent', undefined],
    [{ code: 'slack_webapi_request_error', message: 'ECONNRESET' }, 'transient', undefined],
    [new Error('something odd'), 'transient', undefined],
  ])('%j → %s', (error, kind, retryAfterMs) => {
    const failure = classifySlackError(error);
    expect(failure.kind).toBe(kind);
    expect(failure.retryAfterMs).toBe(retryAfterMs);
  });
});

describe('findNotification', () => {
  it('finds the message carrying the key among others', () => {
    const messages = [
      { ts: '1.1', metadata: { event_type: 'other', event_payload: { key: 'k' } } },
      { ts: '1.2' },
      { ts: '1.3', ...notificationMetadataMessage('k') },
    ];
    expect(findNotification(messages, 'k')).toBe('1.3');
    expect(findNotification(messages, 'nope')).toBeUndefined();
  });
});

function notificationMetadataMessage(key: string) {
  return { metadata: notificationMetadata(key) };
}
