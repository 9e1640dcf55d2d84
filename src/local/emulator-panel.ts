/**
 * The side panel's operations on the embedded emulator (PROTOCOL.md, "Emulator side panel"):
 * move its clock, add and remove participants and streams, push an archive to a final status,
 * inject faults, create sessions — each body checked with a zod schema, each answer
 * `{ok:true,…}` or `{ok:false, error}`. Errors are the emulator's own sentences, which name ids,
 * never credentials.
 */
import { z } from 'zod';
import type { EmulatorControl } from '../emulator';

export const PANEL_ACTIONS = {
  advance: z.object({
    seconds: z
      .number()
      .positive()
      .max(30 * 86_400),
  }),
  'create-session': z.object({ mediaMode: z.enum(['routed', 'relayed']).default('routed') }),
  'add-participant': z.object({ sessionId: z.string().min(1), name: z.string().min(1).max(60).optional() }),
  'remove-participant': z.object({ sessionId: z.string().min(1), connectionId: z.string().min(1) }),
  'add-stream': z.object({
    sessionId: z.string().min(1),
    connectionId: z.string().min(1).optional(),
    videoType: z.enum(['camera', 'screen', 'custom']).default('screen'),
    name: z.string().min(1).max(60).optional(),
  }),
  'remove-stream': z.object({ sessionId: z.string().min(1), streamId: z.string().min(1) }),
  'archive-state': z.object({ archiveId: z.string().min(1), status: z.enum(['failed', 'expired', 'available', 'uploaded']) }),
  fault: z.object({
    path: z.string().min(1),
    method: z.string().min(1).optional(),
    kind: z.enum(['status', 'hang', 'reset', 'malformed']).default('status'),
    status: z.number().int().min(100).max(599).optional(),
    count: z.number().int().min(1).max(1000).optional(),
    retryAfterSeconds: z.number().int().min(0).optional(),
  }),
  'clear-faults': z.object({}),
} as const;

export type PanelAction = keyof typeof PANEL_ACTIONS;
export type PanelResult = ({ ok: true } & Record<string, unknown>) | { ok: false; error: string };

export interface PanelSession {
  id: string;
  participants: Array<{ connectionId: string; name: string; streams: Array<{ streamId: string; videoType: string; name: string; muted: boolean }> }>;
}

export interface PanelArchive {
  id: string;
  sessionId: string;
  name: string;
  status: string;
}

export interface EmulatorPanelOptions {
  control: EmulatorControl;
  /** The local project's API key. */
  apiKey: string;
  /** Called after every operation that changed the emulator. */
  changed: () => void;
}

/**
 * Archive ids named in the emulator's request log (`/v2/project/<key>/archive/<id>…`): every
 * archive the app started, since its poller reads each one back. Listing them through the REST
 * API instead would use up faults injected from the panel and show in the request log.
 */
export function archiveIdsInRequestLog(log: ReadonlyArray<{ path: string }>, apiKey: string): string[] {
  const prefix = `/v2/project/${apiKey}/archive/`;
  const ids = new Set<string>();
  for (const { path } of log) {
    if (!path.startsWith(prefix)) continue;
    const id = decodeURIComponent(path.slice(prefix.length).split(/[/?]/)[0] ?? '');
    if (id) ids.add(id);
  }
  return [...ids];
}

const NAMES = ['Alice', 'Bob', 'Chidi', 'Dana', 'Emeka', 'Fatima', 'Gustav', 'Hana', 'Ines', 'Jun'];

/** The name a connection's data carries (`name=Alice`), else its id's tail. */
function participantName(data: string, connectionId: string): string {
  return new URLSearchParams(data).get('name') ?? `Connection ${connectionId.slice(-6)}`;
}

/** How often the panel looks for changes the emulator made on its own (its clock, the app's calls). */
export const PANEL_WATCH_INTERVAL_MS = 500;

export class EmulatorPanel {
  private readonly sessionIds: string[] = [];
  private joined = 0;
  private watcher: NodeJS.Timeout | undefined;
  private lastSeen = '';

  constructor(private readonly options: EmulatorPanelOptions) {}

  /**
   * Reports (through `changed`) what the page shows of the emulator changing without a panel
   * action: a recording the app started, a status moved on by the clock, a participant the app
   * disconnected. In-process reads only; no request reaches the emulator's API.
   */
  startWatching(intervalMs = PANEL_WATCH_INTERVAL_MS): void {
    this.lastSeen = this.fingerprint();
    this.watcher ??= setInterval(() => {
      const seen = this.fingerprint();
      if (seen === this.lastSeen) return;
      this.lastSeen = seen;
      this.options.changed();
    }, intervalMs);
    this.watcher.unref();
  }

  stopWatching(): void {
    clearInterval(this.watcher);
    this.watcher = undefined;
  }

  private fingerprint(): string {
    try {
      return JSON.stringify([this.sessions(), this.archives()]);
    } catch {
      return this.lastSeen;
    }
  }

  now(): number {
    return this.options.control.now();
  }

  knownSessions(): string[] {
    return [...this.sessionIds];
  }

  /** Sessions created here, with who is connected and what they publish. */
  sessions(): PanelSession[] {
    const { control, apiKey } = this.options;
    return this.sessionIds.map((id) => {
      const snapshot = control.getSession(apiKey, id);
      return {
        id,
        participants: snapshot.connections
          .filter((c) => c.connected)
          .map((c) => ({
            connectionId: c.connectionId,
            name: participantName(c.data, c.connectionId),
            streams: snapshot.streams
              .filter((s) => s.connectionId === c.connectionId)
              .map((s) => ({ streamId: s.streamId, videoType: s.videoType, name: s.name, muted: s.muted })),
          })),
      };
    });
  }

  /** The project's archives, newest first, read through the control plane (no REST call). */
  archives(): PanelArchive[] {
    const { control, apiKey } = this.options;
    const found: Array<PanelArchive & { createdAt: number }> = [];
    for (const id of archiveIdsInRequestLog(control.requestLog(), apiKey)) {
      try {
        const archive = control.getArchive(apiKey, id);
        found.push({ id: archive.id, sessionId: archive.sessionId, name: archive.name, status: archive.status, createdAt: archive.createdAt });
      } catch {
        // Deleted since, or never existed (a 404 the app asked for).
      }
    }
    return found.sort((a, b) => b.createdAt - a.createdAt).map(({ createdAt: _createdAt, ...archive }) => archive);
  }

  /** A routed session with `participants` publishing cameras (one also shares a screen). */
  seedSession(participants: number): string {
    const sessionId = this.createSession('routed');
    for (let i = 0; i < participants; i++) {
      const { connectionId } = this.addParticipant(sessionId);
      if (i === 1) this.options.control.publish(this.options.apiKey, sessionId, connectionId, { videoType: 'screen', name: 'Screen' });
    }
    return sessionId;
  }

  private createSession(mediaMode: 'routed' | 'relayed'): string {
    const sessionId = this.options.control.createSession(this.options.apiKey, { mediaMode });
    this.sessionIds.push(sessionId);
    return sessionId;
  }

  private addParticipant(sessionId: string, name?: string): { connectionId: string; streamId: string } {
    const { control, apiKey } = this.options;
    const who = name ?? NAMES[this.joined % NAMES.length]!;
    this.joined++;
    const connectionId = control.connect(apiKey, sessionId, { data: new URLSearchParams({ name: who }).toString() });
    const streamId = control.publish(apiKey, sessionId, connectionId, { videoType: 'camera', name: who });
    return { connectionId, streamId };
  }

  async run(action: string, body: unknown): Promise<PanelResult> {
    if (!(action in PANEL_ACTIONS)) return { ok: false, error: `there is no emulator action “${action}”; known: ${Object.keys(PANEL_ACTIONS).join(', ')}` };
    const parsed = PANEL_ACTIONS[action as PanelAction].safeParse(body ?? {});
    if (!parsed.success) return { ok: false, error: parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ') };
    try {
      const result = this.apply(action as PanelAction, parsed.data);
      this.lastSeen = this.fingerprint();
      this.options.changed();
      return { ok: true, ...result, now: new Date(this.now()).toISOString() };
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
  }

  private apply(action: PanelAction, input: unknown): Record<string, unknown> {
    const { control, apiKey } = this.options;
    switch (action) {
      case 'advance': {
        const { seconds } = input as z.output<(typeof PANEL_ACTIONS)['advance']>;
        control.advanceTime(Math.round(seconds * 1000));
        return {};
      }
      case 'create-session': {
        const { mediaMode } = input as z.output<(typeof PANEL_ACTIONS)['create-session']>;
        return { sessionId: this.createSession(mediaMode) };
      }
      case 'add-participant': {
        const { sessionId, name } = input as z.output<(typeof PANEL_ACTIONS)['add-participant']>;
        return this.addParticipant(sessionId, name);
      }
      case 'remove-participant': {
        const { sessionId, connectionId } = input as z.output<(typeof PANEL_ACTIONS)['remove-participant']>;
        control.disconnect(apiKey, sessionId, connectionId);
        return {};
      }
      case 'add-stream': {
        const { sessionId, connectionId, videoType, name } = input as z.output<(typeof PANEL_ACTIONS)['add-stream']>;
        const publisher = connectionId ?? control.connect(apiKey, sessionId, { data: new URLSearchParams({ name: name ?? 'Guest' }).toString() });
        const streamId = control.publish(apiKey, sessionId, publisher, { videoType, name: name ?? (videoType === 'screen' ? 'Screen' : 'Guest') });
        return { connectionId: publisher, streamId };
      }
      case 'remove-stream': {
        const { sessionId, streamId } = input as z.output<(typeof PANEL_ACTIONS)['remove-stream']>;
        control.unpublish(apiKey, sessionId, streamId);
        return {};
      }
      case 'archive-state': {
        const { archiveId, status } = input as z.output<(typeof PANEL_ACTIONS)['archive-state']>;
        control.setArchiveStatus(apiKey, archiveId, status);
        return {};
      }
      case 'fault': {
        const fault = input as z.output<(typeof PANEL_ACTIONS)['fault']>;
        control.injectFault(Object.fromEntries(Object.entries(fault).filter(([, v]) => v !== undefined)) as z.output<(typeof PANEL_ACTIONS)['fault']>);
        return {};
      }
      case 'clear-faults':
        control.clearFaults();
        return {};
    }
  }
}
