import { conflict, notFound } from '../errors';
import { isUuid, newId } from '../ids';
import type { Captions, CaptionsStatus } from '../state/model';
import type { BackendContext } from './context';
import { applyTransition, type TransitionTable } from './lifecycle';
import type { SessionsBackend } from './sessions';

export const CAPTIONS_TRANSITIONS = {
  stop: { from: ['started'], to: 'stopped', reason: 'Stop Requested' },
  maxDuration: { from: ['started'], to: 'stopped', reason: 'Max Duration Exceeded' },
} as const satisfies TransitionTable<CaptionsStatus, string>;

export interface StartCaptionsRequest {
  sessionId: string;
  languageCode: string;
  maxDuration: number;
  partialCaptions: boolean;
}

/** Live captions: at most one running per session; ends by itself at `maxDuration`. */
export class CaptionsBackend {
  constructor(
    private readonly ctx: BackendContext,
    private readonly sessions: SessionsBackend,
  ) {}

  start(apiKey: string, req: StartCaptionsRequest): Captions {
    const session = this.sessions.find(apiKey, req.sessionId);
    const project = this.sessions.project(apiKey);
    const running = [...project.captions.values()].some((c) => c.sessionId === session.id && c.status === 'started');
    if (running) throw conflict('Captions are already started for this session');
    const now = this.ctx.clock.now();
    const captions: Captions = { id: newId(), apiKey, ...req, status: 'started', createdAt: now, updatedAt: now };
    project.captions.set(captions.id, captions);
    this.ctx.scheduler.after(this.key(captions), req.maxDuration * 1000, () => this.move(captions, 'maxDuration'));
    return captions;
  }

  stop(apiKey: string, captionsId: string): Captions {
    const captions = isUuid(captionsId) ? this.sessions.project(apiKey).captions.get(captionsId) : undefined;
    if (!captions) throw notFound(`Captions ${captionsId} not found`);
    if (!this.move(captions, 'stop')) throw notFound(`Captions ${captionsId} already stopped`);
    return captions;
  }

  get(apiKey: string, captionsId: string): Captions {
    const captions = this.sessions.project(apiKey).captions.get(captionsId);
    if (!captions) throw notFound(`Captions ${captionsId} not found`);
    return captions;
  }

  private move(captions: Captions, how: keyof typeof CAPTIONS_TRANSITIONS): boolean {
    if (!applyTransition(captions, CAPTIONS_TRANSITIONS[how], this.ctx.clock.now())) return false;
    this.ctx.scheduler.cancel(this.key(captions));
    return true;
  }

  private key(captions: Captions): string {
    return `${captions.apiKey}/captions/${captions.id}/maxDuration`;
  }
}
