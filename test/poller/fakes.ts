/**
 * Shared fakes for the poller tests: an in-memory video service behind the PollSource
 * interface (list semantics as the spec describes them), a Slack that records what it was
 * asked to post and can fail on cue, and builders for watches and resources.
 */
import { createLogger } from '../../src/log';
import { SlackDeliveryError, type SlackPoster, findNotification, notificationMetadata } from '../../src/poller/delivery';
import type { ArchiveResource, BroadcastResource, ListQuery, Page, PollSource, RenderResource } from '../../src/poller/resources';
import type { SlackBlocks, WatchStore, WatchTarget } from '../../src/poller/watch';

export const silentLogger = createLogger({ level: 'silent' });

export interface SourceCall {
  project: string;
  op: string;
  at: number;
}

interface ProjectData {
  archives: ArchiveResource[];
  broadcasts: BroadcastResource[];
  renders: RenderResource[];
  streams: Map<string, string[]>;
}

const newestFirst = <T extends { createdAt: number }>(items: T[]): T[] => [...items].sort((a, b) => b.createdAt - a.createdAt);

function page<T>(items: T[], query: { offset: number; count: number }): Page<T> {
  return { count: items.length, items: JSON.parse(JSON.stringify(items.slice(query.offset, query.offset + query.count))) as T[] };
}

/** The video service as the poller sees it, with counters and failure injection. */
export class FakeVideoService implements PollSource {
  readonly calls: SourceCall[] = [];
  readonly #projects = new Map<string, ProjectData>();
  readonly #failing = new Map<string, number>();

  constructor(private readonly clock: () => number = () => Date.now()) {}

  project(name: string): ProjectData {
    let data = this.#projects.get(name);
    if (!data) {
      data = { archives: [], broadcasts: [], renders: [], streams: new Map() };
      this.#projects.set(name, data);
    }
    return data;
  }

  putArchive(project: string, archive: ArchiveResource): void {
    const data = this.project(project);
    data.archives = [...data.archives.filter((a) => a.id !== archive.id), archive];
  }

  updateArchive(project: string, id: string, change: Partial<ArchiveResource>): void {
    const archive = this.project(project).archives.find((a) => a.id === id);
    if (!archive) throw new Error(`no archive ${id}`);
    Object.assign(archive, change);
  }

  putBroadcast(project: string, broadcast: BroadcastResource): void {
    const data = this.project(project);
    data.broadcasts = [...data.broadcasts.filter((b) => b.id !== broadcast.id), broadcast];
  }

  updateBroadcast(project: string, id: string, change: Partial<BroadcastResource>): void {
    const broadcast = this.project(project).broadcasts.find((b) => b.id === id);
    if (!broadcast) throw new Error(`no broadcast ${id}`);
    Object.assign(broadcast, change);
  }

  putRender(project: string, render: RenderResource): void {
    const data = this.project(project);
    data.renders = [...data.renders.filter((r) => r.id !== render.id), render];
  }

  updateRender(project: string, id: string, change: Partial<RenderResource>): void {
    const render = this.project(project).renders.find((r) => r.id === id);
    if (!render) throw new Error(`no render ${id}`);
    Object.assign(render, change);
  }

  setStreams(project: string, sessionId: string, streamIds: string[]): void {
    this.project(project).streams.set(sessionId, streamIds);
  }

  /** The next `times` calls for the project reject like a 500 would. */
  failProject(project: string, times = Infinity): void {
    this.#failing.set(project, times);
  }

  heal(project: string): void {
    this.#failing.delete(project);
  }

  callsFor(project: string): SourceCall[] {
    return this.calls.filter((c) => c.project === project);
  }

  readonly archives = {
    list: async (project: string, query: ListQuery) => {
      this.#record(project, 'archives.list');
      const items = newestFirst(this.project(project).archives).filter(
        (a) => a.status !== 'deleted' && (query.sessionId === undefined || a.sessionId === query.sessionId),
      );
      return page(items, query);
    },
    get: async (project: string, id: string) => {
      this.#record(project, 'archives.get');
      const found = this.project(project).archives.find((a) => a.id === id);
      return found && structuredClone(found);
    },
  };

  readonly broadcasts = {
    list: async (project: string, query: ListQuery) => {
      this.#record(project, 'broadcasts.list');
      const items = newestFirst(this.project(project).broadcasts).filter(
        (b) => b.status === 'started' && (query.sessionId === undefined || b.sessionId === query.sessionId),
      );
      return page(items, query);
    },
    get: async (project: string, id: string) => {
      this.#record(project, 'broadcasts.get');
      const found = this.project(project).broadcasts.find((b) => b.id === id);
      return found && structuredClone(found);
    },
  };

  readonly renders = {
    list: async (project: string, query: { offset: number; count: number }) => {
      this.#record(project, 'renders.list');
      return page(this.project(project).renders, query);
    },
    get: async (project: string, id: string) => {
      this.#record(project, 'renders.get');
      const found = this.project(project).renders.find((r) => r.id === id);
      return found && structuredClone(found);
    },
  };

  readonly streams = {
    list: async (project: string, sessionId: string) => {
      this.#record(project, 'streams.list');
      return (this.project(project).streams.get(sessionId) ?? []).map((id) => ({ id }));
    },
  };

  #record(project: string, op: string): void {
    this.calls.push({ project, op, at: this.clock() });
    const failing = this.#failing.get(project) ?? 0;
    if (failing > 0) {
      this.#failing.set(project, failing - 1);
      throw Object.assign(new Error('service unavailable'), { status: 500 });
    }
  }
}

export interface PostedMessage {
  channel: string;
  threadTs: string | undefined;
  text: string;
  ts: string;
  key: string;
  at: number;
  metadata: ReturnType<typeof notificationMetadata>;
}

export interface CardUpdate {
  channel: string;
  ts: string;
  blocks: SlackBlocks;
  at: number;
}

type Failure = 'rate-limited' | 'server-error' | 'permanent' | 'timeout-after-post';

/** Slack as the deliverer sees it: records posts and card updates; fails on cue. */
export class FakeSlack implements SlackPoster {
  readonly posts: PostedMessage[] = [];
  readonly cardUpdates: CardUpdate[] = [];
  readonly lookups: string[] = [];
  readonly #failures: Failure[] = [];
  #seq = 0;

  constructor(
    private readonly clock: () => number = () => Date.now(),
    private readonly retryAfterMs = 30_000,
  ) {}

  /** The next posts fail in this order. */
  failNext(...failures: Failure[]): void {
    this.#failures.push(...failures);
  }

  async postThreadReply(channel: string, threadTs: string | undefined, text: string, context: { idempotencyKey: string }): Promise<{ ts: string }> {
    const failure = this.#failures.shift();
    if (failure === 'rate-limited') throw new SlackDeliveryError('ratelimited', 'rate-limited', this.retryAfterMs);
    if (failure === 'server-error')
      throw Object.assign(new Error('An HTTP protocol error occurred: statusCode = 500'), { code: 'slack_webapi_http_error', statusCode: 500 });
    if (failure === 'permanent')
      throw Object.assign(new Error('An API error occurred: channel_not_found'), {
        code: 'slack_webapi_platform_error',
        data: { ok: false, error: 'channel_not_found' },
      });
    const ts = `${Math.floor(this.clock() / 1000)}.${String(++this.#seq).padStart(6, '0')}`;
    this.posts.push({ channel, threadTs, text, ts, key: context.idempotencyKey, at: this.clock(), metadata: notificationMetadata(context.idempotencyKey) });
    if (failure === 'timeout-after-post') throw Object.assign(new Error('socket hang up'), { code: 'slack_webapi_request_error' });
    return { ts };
  }

  async updateCard(channel: string, ts: string, blocks: SlackBlocks): Promise<void> {
    this.cardUpdates.push({ channel, ts, blocks, at: this.clock() });
  }

  async findPosted(channel: string, threadTs: string | undefined, idempotencyKey: string, sinceMs: number): Promise<string | undefined> {
    this.lookups.push(idempotencyKey);
    const candidates = this.posts.filter((p) => p.channel === channel && p.threadTs === threadTs && p.at >= sinceMs);
    return findNotification(
      candidates.map((p) => ({ ts: p.ts, metadata: p.metadata })),
      idempotencyKey,
    );
  }

  keys(): string[] {
    return this.posts.map((p) => p.key);
  }
}

export const target = (overrides: Partial<WatchTarget> = {}): WatchTarget => ({
  teamId: 'T1',
  channelId: 'C1',
  messageTs: '1700000000.000100',
  projectName: 'prod',
  ...overrides,
});

export function archive(overrides: Partial<ArchiveResource> & { id: string }): ArchiveResource {
  return { status: 'started', sessionId: 'S1', createdAt: 1_700_000_000_000, duration: 0, size: 0, ...overrides };
}

export function broadcast(overrides: Partial<BroadcastResource> & { id: string }): BroadcastResource {
  return {
    status: 'started',
    sessionId: 'S1',
    createdAt: 1_700_000_000_000,
    broadcastUrls: { hls: 'https://cdn/x.m3u8', hlsStatus: 'connecting', rtmp: [] },
    ...overrides,
  };
}

export function render(overrides: Partial<RenderResource> & { id: string }): RenderResource {
  return { status: 'starting', sessionId: 'S1', createdAt: 1_700_000_000_000, ...overrides };
}

/** The store with some methods replaced (to inject failures or record calls); the rest reach the store itself. */
export function storeWith(store: WatchStore, overrides: Partial<WatchStore>): WatchStore {
  return new Proxy(store, {
    get(target, property, receiver) {
      if (Object.prototype.hasOwnProperty.call(overrides, property)) return overrides[property as keyof WatchStore];
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
