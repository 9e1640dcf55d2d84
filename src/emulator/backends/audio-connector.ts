import { conflict, notFound } from '../errors';
import { newId } from '../ids';
import type { AudioConnection } from '../state/model';
import type { ClientToken } from '../auth/client-token';
import type { BackendContext } from './context';
import type { SessionsBackend } from './sessions';

export interface AudioConnectRequest {
  sessionId: string;
  uri: string;
  streams?: string[];
  headers: Record<string, string>;
  audioRate: 8000 | 16000;
}

/** Audio Connector: a connection that sends session audio to a WebSocket until disconnected. */
export class AudioConnectorBackend {
  constructor(
    private readonly ctx: BackendContext,
    private readonly sessions: SessionsBackend,
  ) {
    ctx.events.on((change) => {
      if (change.kind !== 'disconnected' || change.connection.kind !== 'audio') return;
      const project = ctx.state.projects.get(change.session.apiKey);
      for (const audio of project?.audioConnections.values() ?? []) {
        if (audio.connectionId === change.connection.id && audio.status === 'connected') {
          audio.status = 'disconnected';
          audio.updatedAt = ctx.clock.now();
        }
      }
    });
  }

  connect(apiKey: string, req: AudioConnectRequest, token: ClientToken): AudioConnection {
    const session = this.sessions.find(apiKey, req.sessionId);
    if (session.mediaMode !== 'routed') throw conflict('Audio Connector needs a session using the media router (media mode routed)');
    const connection = this.sessions.connect(apiKey, req.sessionId, { data: token.data, kind: 'audio' });
    const now = this.ctx.clock.now();
    const audio: AudioConnection = {
      id: newId(),
      apiKey,
      sessionId: req.sessionId,
      connectionId: connection.id,
      status: 'connected',
      uri: req.uri,
      headers: req.headers,
      audioRate: req.audioRate,
      createdAt: now,
      updatedAt: now,
    };
    if (req.streams) audio.streams = req.streams;
    this.sessions.project(apiKey).audioConnections.set(audio.id, audio);
    return audio;
  }

  get(apiKey: string, id: string): AudioConnection {
    const audio = this.sessions.project(apiKey).audioConnections.get(id);
    if (!audio) throw notFound(`Audio connection ${id} not found`);
    return audio;
  }
}
