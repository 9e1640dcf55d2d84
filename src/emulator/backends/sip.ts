import { conflict, notFound } from '../errors';
import { newId } from '../ids';
import type { SipCall, SipOptions } from '../state/model';
import type { ClientToken } from '../auth/client-token';
import type { BackendContext } from './context';
import { applyTransition, delayOf, type TransitionTable } from './lifecycle';
import type { SessionsBackend } from './sessions';

export const SIP_TRANSITIONS = {
  hangUp: { from: ['started'], to: 'ended', reason: 'force disconnected' },
  maxDuration: { from: ['started'], to: 'ended', reason: 'maximum duration exceeded', after: 'sipMaxDurationMs' },
} as const satisfies TransitionTable<SipCall['status'], string>;

/** SIP dial-out: the call joins the session as a connection with an audio-only stream. */
export class SipBackend {
  constructor(
    private readonly ctx: BackendContext,
    private readonly sessions: SessionsBackend,
  ) {
    ctx.events.on((change) => {
      if (change.kind === 'disconnected' && change.connection.kind === 'sip') {
        const call = this.byConnection(change.session.apiKey, change.connection.id);
        if (call) this.end(call, 'hangUp');
      }
    });
  }

  dial(apiKey: string, sessionId: string, sip: SipOptions, token: ClientToken): SipCall {
    const session = this.sessions.find(apiKey, sessionId);
    if (session.mediaMode !== 'routed') throw conflict('SIP calls need a session using the media router (media mode routed)');
    const connection = this.sessions.connect(apiKey, sessionId, { data: token.data, kind: 'sip' });
    const stream = this.sessions.publish(apiKey, sessionId, connection.id, {
      videoType: 'camera',
      name: sip.from ?? '',
      hasAudio: true,
      hasVideo: sip.video,
    });
    const now = this.ctx.clock.now();
    const call: SipCall = {
      id: newId(),
      apiKey,
      sessionId,
      connectionId: connection.id,
      streamId: stream.id,
      status: 'started',
      sip,
      createdAt: now,
      updatedAt: now,
    };
    this.sessions.project(apiKey).sipCalls.set(call.id, call);
    this.ctx.scheduler.after(this.key(call), delayOf(SIP_TRANSITIONS.maxDuration, this.ctx.timings), () => this.end(call, 'maxDuration'));
    return call;
  }

  get(apiKey: string, callId: string): SipCall {
    const call = this.sessions.project(apiKey).sipCalls.get(callId);
    if (!call) throw notFound(`SIP call ${callId} not found`);
    return call;
  }

  private end(call: SipCall, how: keyof typeof SIP_TRANSITIONS): void {
    if (!applyTransition(call, SIP_TRANSITIONS[how], this.ctx.clock.now())) return;
    this.ctx.scheduler.cancel(this.key(call));
    const session = this.sessions.project(call.apiKey).sessions.get(call.sessionId);
    if (session?.connections.get(call.connectionId)?.connected) {
      this.sessions.disconnect(call.apiKey, call.sessionId, call.connectionId);
    }
  }

  private byConnection(apiKey: string, connectionId: string): SipCall | undefined {
    const project = this.ctx.state.projects.get(apiKey);
    return [...(project?.sipCalls.values() ?? [])].find((c) => c.connectionId === connectionId);
  }

  private key(call: SipCall): string {
    return `${call.apiKey}/sip/${call.id}/maxDuration`;
  }
}
