import type { ResourceContext } from './context';
import { type CallOptions, projectPath } from './http';
import { fail, maxBytes, requireId, requireObject } from './validate';

export const SIGNAL_TYPE_MAX_BYTES = 128;
export const SIGNAL_DATA_MAX_BYTES = 8192;

export interface Signal {
  /** At most 128 bytes in UTF-8. */
  type: string;
  /** At most 8 kB (8192 bytes) in UTF-8. */
  data: string;
}

export function signalBody(signal: unknown): Signal {
  const { type, data } = requireObject('signal', signal, '{ type: "chat", data: "Recording starts in 1 minute" }');
  if (typeof type !== 'string' || type === '') fail('type', 'is required and must be a non-empty string', '"chat"');
  if (typeof data !== 'string') fail('data', 'is required and must be a string', '"Recording starts in 1 minute"');
  maxBytes('type', type, SIGNAL_TYPE_MAX_BYTES, '"chat"');
  maxBytes('data', data, SIGNAL_DATA_MAX_BYTES, 'a shorter message such as "Recording starts in 1 minute"');
  return { type, data };
}

export class Signals {
  readonly #ctx: ResourceContext;

  constructor(ctx: ResourceContext) {
    this.#ctx = ctx;
  }

  /** Sends a signal to every client connected to the session. */
  async sendToAll(sessionId: string, signal: Signal, call?: CallOptions): Promise<void> {
    const path = projectPath(this.#ctx.apiKey(), 'session', requireId('sessionId', sessionId), 'signal');
    return this.#ctx.http.request({ method: 'POST', path, json: signalBody(signal) }, call);
  }

  /** Sends a signal to one connection. */
  async sendToConnection(sessionId: string, connectionId: string, signal: Signal, call?: CallOptions): Promise<void> {
    const path = projectPath(
      this.#ctx.apiKey(),
      'session',
      requireId('sessionId', sessionId),
      'connection',
      requireId('connectionId', connectionId, '"8b732909-0a06-46a2-8ea8-074e64d43422"'),
      'signal',
    );
    return this.#ctx.http.request({ method: 'POST', path, json: signalBody(signal) }, call);
  }
}
