import type { SessionChange, SessionEvents } from '../backends/events';
import type { Clock } from '../clock';
import type { EmulatorState } from '../state/store';
import type { ClientInfo, Connection, ConnectionKind, RecordedSession } from '../state/model';

/** What Insights assumes about a connection's client when the caller did not say. */
export const DEFAULT_CLIENTS: Readonly<Record<ConnectionKind, ClientInfo>> = {
  client: { sdkType: 'JS', sdkVersion: '2.28.0', country: 'US', region: 'US-CA', browser: 'CHROME', browserVersion: '130.0' },
  // SIP calls and the Audio Connector run in the service's media servers, not in a browser.
  sip: { sdkType: 'SIP', sdkVersion: '1.0.0', country: 'US', region: 'US-VA', browser: null, browserVersion: null },
  audio: { sdkType: 'OTHER', sdkVersion: '1.0.0', country: 'US', region: 'US-VA', browser: null, browserVersion: null },
  // Experience Composer renders the page in a server-side Chrome with the JS SDK.
  render: { sdkType: 'JS', sdkVersion: '2.28.0', country: 'US', region: 'US-VA', browser: 'CHROME', browserVersion: '130.0' },
};

/**
 * The connection's client: what the caller gave, the rest from the kind's defaults. Browser
 * fields default to null for a non-JS SDK (an Android app has no browser).
 */
export function clientOf(connection: Pick<Connection, 'kind' | 'client'>): ClientInfo {
  const base = DEFAULT_CLIENTS[connection.kind];
  const given = connection.client ?? {};
  const sdkType = given.sdkType ?? base.sdkType;
  const browser =
    sdkType === 'JS'
      ? { browser: base.browser ?? 'CHROME', browserVersion: base.browserVersion ?? DEFAULT_CLIENTS.client.browserVersion }
      : { browser: null, browserVersion: null };
  return { ...base, ...browser, ...given };
}

/**
 * Keeps the lifetimes Insights needs. The REST state forgets unpublished streams, so every
 * connect / disconnect / publish / unpublish is copied, on the emulator clock, into
 * `project.insights.sessions` (SIP, Audio Connector and composer connections included: they go
 * through the same session operations).
 */
export function recordSessionActivity(state: EmulatorState, events: SessionEvents, clock: Clock): void {
  events.on((change) => record(state, change, clock.now()));
}

/** `now`: events happen at the current emulator time (pinned to the due time inside transitions). */
function record(state: EmulatorState, change: SessionChange, now: number): void {
  const project = state.projects.get(change.session.apiKey);
  if (!project) return;
  const sessions = project.insights.sessions;
  let recorded = sessions.get(change.session.id);
  if (!recorded) {
    recorded = { sessionId: change.session.id, connections: [], streams: [] } satisfies RecordedSession;
    sessions.set(recorded.sessionId, recorded);
  }
  switch (change.kind) {
    case 'connected': {
      const c = change.connection;
      recorded.connections.push({
        connectionId: c.id,
        kind: c.kind,
        client: clientOf(c),
        createdAt: c.createdAt,
        failures: { connect: 0, publish: 0, subscribe: 0 },
      });
      break;
    }
    case 'disconnected': {
      const found = recorded.connections.find((c) => c.connectionId === change.connection.id);
      if (found) found.destroyedAt = change.connection.disconnectedAt ?? found.createdAt;
      break;
    }
    case 'published': {
      const s = change.stream;
      recorded.streams.push({
        streamId: s.id,
        connectionId: s.connectionId,
        videoType: s.videoType,
        hasAudio: s.hasAudio,
        hasVideo: s.hasVideo,
        createdAt: s.createdAt,
      });
      break;
    }
    case 'unpublished': {
      const found = recorded.streams.find((s) => s.streamId === change.stream.id);
      if (found && found.destroyedAt === undefined) found.destroyedAt = Math.max(found.createdAt, now);
      break;
    }
  }
}
