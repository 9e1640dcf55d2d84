import type { Backends } from './backends';
import type { ExternalArchiveStatus } from './backends/archives';
import type { OutputStatusChange } from './backends/broadcasts';
import type { BackendContext } from './backends/context';
import type { CreateProjectOptions } from './backends/projects';
import type { CreateSessionOptions, PublishOptions } from './backends/sessions';
import { notFound } from './errors';
import type { Fault } from './http/faults';
import type { RequestLogEntry, Runtime } from './http/server';
import {
  archiveSnapshot,
  audioConnectionSnapshot,
  broadcastSnapshot,
  captionsSnapshot,
  projectSnapshot,
  renderSnapshot,
  sessionSnapshot,
  sipCallSnapshot,
  type ArchiveSnapshot,
  type AudioConnectionSnapshot,
  type BroadcastSnapshot,
  type CaptionsSnapshot,
  type ProjectSnapshot,
  type RenderSnapshot,
  type SessionSnapshot,
  type SipCallSnapshot,
} from './snapshots';
import type { GroundTruthDay } from './insights/backend';
import type { ClientInfo, DtmfRecord, SignalRecord } from './state/model';
import { mergeTimings, type TransitionTimings } from './timings';

export type { ExternalArchiveStatus, OutputStatusChange, Fault, RequestLogEntry, GroundTruthDay, ClientInfo, CreateProjectOptions };

export interface ConnectControlOptions {
  data?: string;
  /** SDK, browser and location Insights reports for this connection (defaults: JS in Chrome, US). */
  client?: Partial<ClientInfo>;
}

/** In-process control of a running emulator (the same operations as `/_emulator/...`). */
export interface EmulatorControl {
  /** Forgets all projects and state, faults, latency and the request log; clock and timings go back to their start. */
  reset(): void;
  now(): number;
  /** Moves emulator time forward, running every automatic transition that falls due, in time order. */
  advanceTime(ms: number): void;
  readonly account: { key: string; secret: string };
  /** `advancedInsights` defaults to false, `syntheticHistory` to true. */
  createProject(opts?: CreateProjectOptions): { apiKey: string; apiSecret: string };
  createSession(apiKey: string, opts?: CreateSessionOptions): string;
  connect(apiKey: string, sessionId: string, opts?: ConnectControlOptions): string;
  disconnect(apiKey: string, sessionId: string, connectionId: string): void;
  publish(apiKey: string, sessionId: string, connectionId: string, opts?: PublishOptions): string;
  unpublish(apiKey: string, sessionId: string, streamId: string): void;
  getSession(apiKey: string, sessionId: string): SessionSnapshot;
  getArchive(apiKey: string, archiveId: string): ArchiveSnapshot;
  getBroadcast(apiKey: string, broadcastId: string): BroadcastSnapshot;
  getRender(apiKey: string, renderId: string): RenderSnapshot;
  getCaptions(apiKey: string, captionsId: string): CaptionsSnapshot;
  getSipCall(apiKey: string, callId: string): SipCallSnapshot;
  getAudioConnection(apiKey: string, id: string): AudioConnectionSnapshot;
  getProject(apiKey: string): ProjectSnapshot;
  signalsReceived(apiKey: string, sessionId: string, connectionId: string): SignalRecord[];
  /** DTMF sent to the session (both forms), or only what one connection received. */
  dtmfReceived(apiKey: string, sessionId: string, connectionId?: string): DtmfRecord[];
  requestLog(): RequestLogEntry[];
  uploadTarget(apiKey: string): Record<string, unknown> | null;
  setArchiveStatus(apiKey: string, archiveId: string, status: ExternalArchiveStatus): void;
  setBroadcastOutputStatus(apiKey: string, broadcastId: string, change: OutputStatusChange): void;
  failRender(apiKey: string, renderId: string, reason: string): void;
  injectFault(fault: Fault): void;
  clearFaults(): void;
  /** Answers, as if no fault had been injected, every request a `hang` fault holds; how many there were. */
  releaseHangs(): number;
  /** Delays every public answer by `ms` of wall-clock time. */
  setLatency(ms: number): void;
  setTransitions(partial: Partial<TransitionTimings>): void;
  transitions(): TransitionTimings;
  /** The Advanced Insights add-on (`sessionData`) of a project. */
  setAdvancedInsights(apiKey: string, enabled: boolean): void;
  /** Synthetic history of the 90 days before the project's creation; off: only the emulator's own sessions. */
  setSyntheticHistory(apiKey: string, enabled: boolean): void;
  /** Enforce 100 requests / 30 s per key (429) and 500,000 nodes per query (off by default; reset clears). */
  setInsightsLimits(opts: { enforce: boolean }): void;
  insightsLimits(): { enforce: boolean };
  /** Per Pacific day, the totals `projectData(interval: DAILY)` answers now (same retention and latency). */
  insightsGroundTruth(apiKey: string, range: { start: number | string; end?: number | string }): GroundTruthDay[];
}

export function createControl(ctx: BackendContext, b: Backends, runtime: Runtime, initialTimings: TransitionTimings): EmulatorControl {
  const tick = (): void => ctx.scheduler.runDue();
  /** Every control operation first brings state up to date with the clock. */
  const fresh =
    <A extends unknown[], R>(fn: (...args: A) => R) =>
    (...args: A): R => {
      tick();
      return fn(...args);
    };
  const session = (apiKey: string, sessionId: string) => b.sessions.find(apiKey, sessionId);
  const project = (apiKey: string) => b.projects.get(apiKey);
  const byId = <T>(map: Map<string, T>, id: string, what: string): T => {
    const found = map.get(id);
    if (!found) throw notFound(`${what} ${id} not found`);
    return found;
  };

  return {
    account: ctx.state.account,
    reset: () => {
      ctx.state.reset();
      ctx.scheduler.reset();
      ctx.clock.reset();
      ctx.timings = { ...initialTimings };
      runtime.faults.clear();
      runtime.faults.dropHeld();
      runtime.latencyMs = 0;
      runtime.log.length = 0;
      b.insights.reset();
    },
    now: () => ctx.clock.now(),
    advanceTime: (ms) => ctx.scheduler.advance(ms),
    createProject: fresh((opts = {}) => {
      const created = b.projects.create(opts);
      return { apiKey: created.apiKey, apiSecret: created.secret };
    }),
    createSession: fresh((apiKey, opts = {}) => b.sessions.create(apiKey, opts).id),
    connect: fresh((apiKey, sessionId, opts: ConnectControlOptions = {}) => {
      const { data, client } = opts;
      return b.sessions.connect(apiKey, sessionId, { ...(data === undefined ? {} : { data }), ...(client ? { client } : {}) }).id;
    }),
    disconnect: fresh((apiKey, sessionId, connectionId) => {
      b.sessions.disconnect(apiKey, sessionId, connectionId);
    }),
    publish: fresh((apiKey, sessionId, connectionId, opts = {}) => b.sessions.publish(apiKey, sessionId, connectionId, opts).id),
    unpublish: fresh((apiKey, sessionId, streamId) => b.sessions.unpublish(apiKey, sessionId, streamId)),
    getSession: fresh((apiKey, sessionId) => sessionSnapshot(session(apiKey, sessionId))),
    getArchive: fresh((apiKey, id) => {
      const archive = byId(project(apiKey).archives, id, 'Archive');
      return archiveSnapshot(archive, b.archives.downloadUrl(archive));
    }),
    getBroadcast: fresh((apiKey, id) => broadcastSnapshot(byId(project(apiKey).broadcasts, id, 'Broadcast'))),
    getRender: fresh((apiKey, id) => renderSnapshot(byId(project(apiKey).renders, id, 'Composer'))),
    getCaptions: fresh((apiKey, id) => captionsSnapshot(b.captions.get(apiKey, id))),
    getSipCall: fresh((apiKey, id) => sipCallSnapshot(b.sip.get(apiKey, id))),
    getAudioConnection: fresh((apiKey, id) => audioConnectionSnapshot(b.audio.get(apiKey, id))),
    getProject: fresh((apiKey) => projectSnapshot(project(apiKey))),
    signalsReceived: fresh((apiKey, sessionId, connectionId) =>
      byId(session(apiKey, sessionId).connections, connectionId, 'Connection').signals.map((s) => ({ ...s })),
    ),
    dtmfReceived: fresh((apiKey, sessionId, connectionId?: string) => {
      const s = session(apiKey, sessionId);
      const records = connectionId === undefined ? s.dtmf : byId(s.connections, connectionId, 'Connection').dtmf;
      return records.map((r) => ({ ...r }));
    }),
    requestLog: () => runtime.log.map((e) => ({ ...e })),
    uploadTarget: fresh((apiKey) => b.archives.uploadTarget(apiKey)),
    setArchiveStatus: fresh((apiKey, id, status) => {
      b.archives.setStatus(apiKey, id, status);
    }),
    setBroadcastOutputStatus: fresh((apiKey, id, change) => {
      b.broadcasts.setOutputStatus(apiKey, id, change);
    }),
    failRender: fresh((apiKey, id, reason) => {
      b.renders.fail(apiKey, id, reason);
    }),
    injectFault: (fault) => runtime.faults.add(fault),
    clearFaults: () => runtime.faults.clear(),
    releaseHangs: () => runtime.faults.releaseHeld(),
    setLatency: (ms) => {
      if (!Number.isFinite(ms) || ms < 0) throw new Error('Latency must be a non-negative number of milliseconds');
      runtime.latencyMs = ms;
    },
    setTransitions: (partial) => {
      ctx.timings = mergeTimings(ctx.timings, partial);
    },
    transitions: () => ({ ...ctx.timings }),
    setAdvancedInsights: fresh((apiKey, enabled) => b.projects.setAdvancedInsights(apiKey, enabled)),
    setSyntheticHistory: fresh((apiKey, enabled) => b.projects.setSyntheticHistory(apiKey, enabled)),
    setInsightsLimits: (opts) => b.insights.setLimits(opts),
    insightsLimits: () => b.insights.limits(),
    insightsGroundTruth: fresh((apiKey, range) => b.insights.groundTruth(apiKey, range)),
  };
}
