import { badRequest, notFound } from '../errors';
import { isUuid, newId } from '../ids';
import type { Render, RenderStatus, Resolution } from '../state/model';
import type { ClientToken } from '../auth/client-token';
import type { BackendContext } from './context';
import { applyTransition, delayOf, type TransitionTable } from './lifecycle';
import type { SessionsBackend } from './sessions';

export const RENDER_TRANSITIONS = {
  started: { from: ['starting'], to: 'started', after: 'renderStartMs' },
  stop: { from: ['starting', 'started'], to: 'stopped', reason: 'Stop Requested' },
  maxDuration: { from: ['starting', 'started'], to: 'stopped', reason: 'Max Duration Exceeded' },
  fail: { from: ['starting', 'started'], to: 'failed' },
} as const satisfies TransitionTable<RenderStatus, string>;

export interface StartRenderRequest {
  sessionId: string;
  url: string;
  maxDuration: number;
  resolution: Resolution;
  name?: string;
}

/** Experience Composers: a web page published into the session as a stream once started. */
export class RendersBackend {
  constructor(
    private readonly ctx: BackendContext,
    private readonly sessions: SessionsBackend,
  ) {
    ctx.events.on((change) => {
      if (change.kind !== 'disconnected' || change.connection.kind !== 'render') return;
      const project = ctx.state.projects.get(change.session.apiKey);
      for (const render of project?.renders.values() ?? []) {
        if (render.connectionId === change.connection.id) this.move(render, 'stop');
      }
    });
  }

  start(apiKey: string, req: StartRenderRequest, token: ClientToken): Render {
    const now = this.ctx.clock.now();
    const render: Render = { id: newId(), apiKey, ...req, connectionData: token.data, status: 'starting', createdAt: now, updatedAt: now };
    this.sessions.project(apiKey).renders.set(render.id, render);
    const { scheduler, timings } = this.ctx;
    scheduler.after(this.key(render, 'started'), delayOf(RENDER_TRANSITIONS.started, timings), () => this.publish(render));
    scheduler.after(this.key(render, 'maxDuration'), req.maxDuration * 1000, () => this.move(render, 'maxDuration'));
    return render;
  }

  get(apiKey: string, renderId: string): Render {
    if (!isUuid(renderId)) throw badRequest('Invalid composer ID');
    const render = this.sessions.project(apiKey).renders.get(renderId);
    if (!render) throw notFound(`Composer ${renderId} not found`);
    return render;
  }

  list(apiKey: string, query: { offset: number; count: number }): { total: number; items: Render[] } {
    const all = [...this.sessions.project(apiKey).renders.values()].reverse();
    return { total: all.length, items: all.slice(query.offset, query.offset + query.count) };
  }

  stop(apiKey: string, renderId: string): void {
    const render = isUuid(renderId) ? this.sessions.project(apiKey).renders.get(renderId) : undefined;
    if (!render) throw notFound(`Composer ${renderId} not found`);
    if (!this.move(render, 'stop')) throw notFound(`Composer ${renderId} is already stopped`);
  }

  /** Control plane: the page failed (e.g. could not load). */
  fail(apiKey: string, renderId: string, reason: string): Render {
    const render = this.get(apiKey, renderId);
    if (!this.move(render, 'fail')) throw badRequest(`Composer ${renderId} is already ${render.status}`);
    render.reason = reason;
    return render;
  }

  private publish(render: Render): void {
    if (!applyTransition(render, RENDER_TRANSITIONS.started, this.ctx.clock.now())) return;
    const connection = this.sessions.connect(render.apiKey, render.sessionId, { data: render.connectionData, kind: 'render' });
    const stream = this.sessions.publish(render.apiKey, render.sessionId, connection.id, {
      videoType: 'custom',
      name: render.name ?? '',
    });
    render.connectionId = connection.id;
    render.streamId = stream.id;
  }

  /** Leaves `starting`/`started`, cancels its timers and takes its connection out of the session. */
  private move(render: Render, how: 'stop' | 'maxDuration' | 'fail'): boolean {
    if (!applyTransition(render, RENDER_TRANSITIONS[how], this.ctx.clock.now())) return false;
    this.ctx.scheduler.cancelPrefix(this.key(render, ''));
    const session = this.sessions.project(render.apiKey).sessions.get(render.sessionId);
    if (render.connectionId && session?.connections.get(render.connectionId)?.connected) {
      this.sessions.disconnect(render.apiKey, render.sessionId, render.connectionId);
    }
    return true;
  }

  private key(render: Render, what: string): string {
    return `${render.apiKey}/render/${render.id}/${what}`;
  }
}
