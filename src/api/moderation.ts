import { z } from 'zod';
import type { ResourceContext } from './context';
import { type CallOptions, projectPath } from './http';
import { optionalEpochMs, wireId, wireTime } from './schemas';
import { optionalIdArray, requireBoolean, requireId, requireObject } from './validate';

export interface MuteAllOptions {
  /** true: mute all current and future streams except the excluded ones; false: stop muting new streams. */
  active: boolean;
  /** Used only with active true. */
  excludedStreamIds?: string[];
}

/** A connection as SDK mocks list them (`connectionState`, `createdAt` possibly a numeric string). */
export const connectionInfoSchema = z
  .looseObject({
    connectionId: z.string(),
    connectionState: z.string().optional(),
    createdAt: wireTime.optional(),
  })
  .transform((raw) => ({ ...raw, createdAt: optionalEpochMs(raw.createdAt) }));
export type ConnectionInfo = z.output<typeof connectionInfoSchema>;

export const connectionListSchema = z.looseObject({
  count: z.number().int(),
  projectId: wireId.transform(String).optional(),
  sessionId: z.string().optional(),
  items: z.array(connectionInfoSchema),
});

export function muteAllBody(options: unknown): { active: boolean; excludedStreamIds?: string[] } {
  const { active, excludedStreamIds } = requireObject('options', options, '{ active: true, excludedStreamIds: ["STREAM_ID"] }');
  const isActive = requireBoolean('active', active);
  const excluded = optionalIdArray('excludedStreamIds', excludedStreamIds, '["8b732909-0a06-46a2-8ea8-074e64d43422"]');
  // The service ignores exclusions when deactivating, so they are not sent.
  return isActive && excluded !== undefined ? { active: true, excludedStreamIds: excluded } : { active: isActive };
}

export class Moderation {
  readonly #ctx: ResourceContext;

  constructor(ctx: ResourceContext) {
    this.#ctx = ctx;
  }

  /** Force-disconnects a connection (also ends a SIP call). */
  async disconnect(sessionId: string, connectionId: string, call?: CallOptions): Promise<void> {
    const path = projectPath(
      this.#ctx.apiKey(),
      'session',
      requireId('sessionId', sessionId),
      'connection',
      requireId('connectionId', connectionId, '"8b732909-0a06-46a2-8ea8-074e64d43422"'),
    );
    return this.#ctx.http.request({ method: 'DELETE', path }, call);
  }

  /** Force-mutes one stream's audio. */
  async muteStream(sessionId: string, streamId: string, call?: CallOptions): Promise<void> {
    const path = projectPath(
      this.#ctx.apiKey(),
      'session',
      requireId('sessionId', sessionId),
      'stream',
      requireId('streamId', streamId, '"8b732909-0a06-46a2-8ea8-074e64d43422"'),
      'mute',
    );
    return this.#ctx.http.request({ method: 'POST', path }, call);
  }

  /** Turns the session's mute state on (muting current and future streams) or off. */
  async muteAll(sessionId: string, options: MuteAllOptions, call?: CallOptions): Promise<void> {
    const path = projectPath(this.#ctx.apiKey(), 'session', requireId('sessionId', sessionId), 'mute');
    return this.#ctx.http.request({ method: 'POST', path, json: muteAllBody(options) }, call);
  }
}
