import { badRequest, conflict, notFound } from '../errors';
import { isUuid, newId } from '../ids';
import {
  HLS_STATUSES,
  RTMP_STATUSES,
  type Broadcast,
  type BroadcastStatus,
  type HlsStatus,
  type Layout,
  type Project,
  type Resolution,
  type RtmpStatus,
  type Session,
  type StreamMode,
} from '../state/model';
import type { BackendContext } from './context';
import type { SessionChange } from './events';
import { applyStreamChange, type ListQuery, type StreamChange } from './archives';
import { checkLayoutClasses } from './layout';
import { applyTransition, delayOf, type TransitionTable } from './lifecycle';
import { connectedConnections, type SessionsBackend } from './sessions';

export const BROADCAST_TRANSITIONS = {
  stop: { from: ['started'], to: 'stopped' },
  maxDuration: { from: ['started'], to: 'stopped' },
  lastClientLeft: { from: ['started'], to: 'stopped', after: 'broadcastDisconnectedStopMs' },
} as const satisfies TransitionTable<BroadcastStatus, string>;

export const HLS_TRANSITIONS = {
  ready: { from: ['connecting'], to: 'ready', after: 'hlsReadyMs' },
  live: { from: ['ready'], to: 'live', after: 'hlsLiveMs' },
} as const satisfies TransitionTable<HlsStatus, string>;

export const RTMP_TRANSITIONS = {
  live: { from: ['connecting'], to: 'live', after: 'rtmpLiveMs' },
} as const satisfies TransitionTable<RtmpStatus, string>;

export const MAX_RTMP_OUTPUTS = 5;

export interface RtmpRequest {
  id?: string;
  serverUrl: string;
  streamName: string;
}

export interface StartBroadcastRequest {
  sessionId: string;
  hasAudio: boolean;
  hasVideo: boolean;
  layout?: Layout;
  multiBroadcastTag?: string;
  maxBitrate?: number;
  maxDuration: number;
  hls?: { dvr: boolean; lowLatency: boolean };
  rtmp: RtmpRequest[];
  resolution: Resolution;
  streamMode: StreamMode;
}

export interface OutputStatusChange {
  hls?: HlsStatus;
  rtmp?: Record<string, RtmpStatus>;
}

/** Live-streaming broadcasts: HLS and RTMP output statuses progress on the emulator clock. */
export class BroadcastsBackend {
  constructor(
    private readonly ctx: BackendContext,
    private readonly sessions: SessionsBackend,
  ) {
    ctx.events.on((change) => this.onSessionChange(change));
  }

  start(apiKey: string, req: StartBroadcastRequest): Broadcast {
    const session = this.sessions.find(apiKey, req.sessionId);
    if (session.mediaMode !== 'routed') throw conflict('Session is not using the media router (media mode relayed)');
    if (connectedConnections(session).length === 0) throw badRequest('At least one client must be connected to the session');
    checkLayoutClasses(req.layout, session);
    this.checkSimultaneous(session, req.multiBroadcastTag);
    const id = newId();
    const broadcast: Broadcast = {
      id,
      apiKey,
      sessionId: session.id,
      createdAt: this.ctx.clock.now(),
      status: 'started',
      resolution: req.resolution,
      streamMode: req.streamMode,
      hasAudio: req.hasAudio,
      hasVideo: req.hasVideo,
      maxDuration: req.maxDuration,
      rtmp: req.rtmp.map((r) => ({ id: r.id ?? newId(), serverUrl: r.serverUrl, streamName: r.streamName, status: 'connecting' })),
      selectedStreams: [],
    };
    if (req.layout) broadcast.layout = req.layout;
    if (req.maxBitrate !== undefined) broadcast.maxBitrate = req.maxBitrate;
    if (req.multiBroadcastTag !== undefined) broadcast.multiBroadcastTag = req.multiBroadcastTag;
    if (req.hls) {
      const query = req.hls.dvr ? '?DVR' : '';
      const url = `${this.ctx.baseUrl}/hls/${encodeURIComponent(apiKey)}/${id}/playlist.m3u8${query}`;
      broadcast.hls = { url, status: 'connecting', ...req.hls };
    }
    this.project(apiKey).broadcasts.set(id, broadcast);
    this.scheduleStart(broadcast);
    this.reconcile(broadcast);
    return broadcast;
  }

  stop(apiKey: string, broadcastId: string): Broadcast {
    const broadcast = this.find(apiKey, broadcastId, false);
    if (broadcast.status !== 'started') throw notFound(`Broadcast ${broadcastId} is already stopped`);
    this.finish(broadcast, 'stop');
    return broadcast;
  }

  list(apiKey: string, query: ListQuery): { total: number; items: Broadcast[] } {
    const all = [...this.project(apiKey).broadcasts.values()]
      .reverse()
      .filter((b) => b.status === 'started' && (query.sessionId === undefined || b.sessionId === query.sessionId));
    return { total: all.length, items: all.slice(query.offset, query.offset + query.count) };
  }

  get(apiKey: string, broadcastId: string): Broadcast {
    return this.find(apiKey, broadcastId, true);
  }

  setLayout(apiKey: string, broadcastId: string, layout: Layout): Broadcast {
    const broadcast = this.find(apiKey, broadcastId, true);
    if (broadcast.status !== 'started') throw conflict('The broadcast is stopped');
    checkLayoutClasses(layout, this.session(broadcast));
    broadcast.layout = layout;
    return broadcast;
  }

  selectStreams(apiKey: string, broadcastId: string, change: StreamChange): void {
    const broadcast = this.find(apiKey, broadcastId, true);
    if (broadcast.streamMode !== 'manual') throw badRequest("Stream selection needs streamMode 'manual'");
    if (broadcast.status !== 'started') throw conflict('The broadcast is stopped');
    applyStreamChange(broadcast.selectedStreams, this.session(broadcast), change);
    this.reconcile(broadcast);
  }

  /** Control plane: output status changes the spec attributes to transcoders, CDNs and RTMP servers. */
  setOutputStatus(apiKey: string, broadcastId: string, change: OutputStatusChange): Broadcast {
    const broadcast = this.find(apiKey, broadcastId, false);
    const { scheduler } = this.ctx;
    if (change.hls !== undefined) {
      if (!HLS_STATUSES.includes(change.hls)) throw badRequest(`Unknown HLS status '${change.hls}'`);
      if (!broadcast.hls) throw badRequest('The broadcast has no HLS output');
      broadcast.hls.status = change.hls;
      scheduler.cancel(this.key(broadcast, 'hls/ready'));
      scheduler.cancel(this.key(broadcast, 'hls/live'));
    }
    for (const [outputId, status] of Object.entries(change.rtmp ?? {})) {
      if (!RTMP_STATUSES.includes(status)) throw badRequest(`Unknown RTMP status '${status}'`);
      const output = broadcast.rtmp.find((r) => r.id === outputId);
      if (!output) throw notFound(`RTMP output ${outputId} not found`);
      output.status = status;
      scheduler.cancel(this.key(broadcast, `rtmp/${outputId}/live`));
    }
    this.reconcile(broadcast);
    return broadcast;
  }

  private scheduleStart(broadcast: Broadcast): void {
    const { scheduler, timings } = this.ctx;
    scheduler.after(this.key(broadcast, 'maxDuration'), broadcast.maxDuration * 1000, () => this.finish(broadcast, 'maxDuration'));
    const hls = broadcast.hls;
    if (!hls) return;
    scheduler.after(this.key(broadcast, 'hls/ready'), delayOf(HLS_TRANSITIONS.ready, timings), () => {
      applyTransition(hls, HLS_TRANSITIONS.ready, this.ctx.clock.now());
      this.reconcile(broadcast);
    });
  }

  private onSessionChange(change: SessionChange): void {
    const project = this.ctx.state.projects.get(change.session.apiKey);
    if (!project) return;
    for (const broadcast of project.broadcasts.values()) {
      if (broadcast.sessionId !== change.session.id || broadcast.status !== 'started') continue;
      if (change.kind === 'unpublished') {
        broadcast.selectedStreams = broadcast.selectedStreams.filter((s) => s.streamId !== change.stream.id);
      }
      this.reconcile(broadcast);
    }
  }

  /** Schedules what the session's state makes due: outputs going live, the stop after everyone left. */
  private reconcile(broadcast: Broadcast): void {
    if (broadcast.status !== 'started') return;
    const { scheduler, timings } = this.ctx;
    const session = this.session(broadcast);
    const stopKey = this.key(broadcast, 'lastClientLeft');
    if (connectedConnections(session).length > 0) scheduler.cancel(stopKey);
    else if (!scheduler.has(stopKey)) {
      const since = Math.max(session.noConnectionsSince, broadcast.createdAt);
      scheduler.at(stopKey, since + delayOf(BROADCAST_TRANSITIONS.lastClientLeft, timings), () => this.finish(broadcast, 'lastClientLeft'));
    }
    const media = this.hasMedia(broadcast, session);
    const hls = broadcast.hls;
    if (hls?.status === 'ready') {
      this.whenMedia(media, this.key(broadcast, 'hls/live'), delayOf(HLS_TRANSITIONS.live, timings), () => {
        applyTransition(hls, HLS_TRANSITIONS.live, this.ctx.clock.now());
      });
    }
    for (const output of broadcast.rtmp) {
      if (output.status !== 'connecting') continue;
      this.whenMedia(media, this.key(broadcast, `rtmp/${output.id}/live`), delayOf(RTMP_TRANSITIONS.live, timings), () => {
        applyTransition(output, RTMP_TRANSITIONS.live, this.ctx.clock.now());
      });
    }
  }

  /** Keeps a "goes live" timer running while media flows, and drops it when media stops. */
  private whenMedia(media: boolean, key: string, delayMs: number, run: () => void): void {
    if (!media) this.ctx.scheduler.cancel(key);
    else if (!this.ctx.scheduler.has(key)) this.ctx.scheduler.after(key, delayMs, run);
  }

  private hasMedia(broadcast: Broadcast, session: Session): boolean {
    if (broadcast.streamMode === 'auto') return session.streams.size > 0;
    return broadcast.selectedStreams.some((s) => session.streams.has(s.streamId));
  }

  private finish(broadcast: Broadcast, how: keyof typeof BROADCAST_TRANSITIONS): void {
    const now = this.ctx.clock.now();
    if (!applyTransition(broadcast, BROADCAST_TRANSITIONS[how], now)) return;
    broadcast.stoppedAt = now;
    if (broadcast.hls) broadcast.hls.status = 'ended';
    for (const output of broadcast.rtmp) output.status = 'offline';
    this.ctx.scheduler.cancelPrefix(this.key(broadcast, ''));
  }

  private checkSimultaneous(session: Session, tag: string | undefined): void {
    const running = [...this.project(session.apiKey).broadcasts.values()].filter((b) => b.sessionId === session.id && b.status === 'started');
    if (running.length === 0) return;
    if (tag === undefined) throw conflict('A broadcast is already started for this session; a unique multiBroadcastTag is required');
    if (running.some((b) => b.multiBroadcastTag === tag)) {
      throw conflict(`A broadcast with multiBroadcastTag '${tag}' is already started for this session`);
    }
  }

  private find(apiKey: string, broadcastId: string, malformedIs400: boolean): Broadcast {
    if (!isUuid(broadcastId)) {
      throw malformedIs400 ? badRequest('Invalid broadcast ID') : notFound(`Broadcast ${broadcastId} not found`);
    }
    const broadcast = this.project(apiKey).broadcasts.get(broadcastId);
    if (!broadcast) throw notFound(`Broadcast ${broadcastId} not found`);
    return broadcast;
  }

  private session(broadcast: Broadcast): Session {
    return this.sessions.find(broadcast.apiKey, broadcast.sessionId);
  }

  private project(apiKey: string): Project {
    return this.sessions.project(apiKey);
  }

  private key(broadcast: Broadcast, what: string): string {
    return `${broadcast.apiKey}/broadcast/${broadcast.id}/${what}`;
  }
}
