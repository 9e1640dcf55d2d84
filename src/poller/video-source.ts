/**
 * The PollSource backed by the Video Session Service adapter: one VideoClient per project.
 * Calls go out without the adapter's own retries — the poller's budget counts every request,
 * the executor tries a read that failed in passing once more, and its per-project backoff
 * decides when to try again after that — and "does not exist" answers become
 * absent results instead of failures, so that one vanished resource never backs off a project.
 */
import { type CallOptions, type VideoClient, VideoApiError, VideoConnectionError, VideoNotFoundError, VideoValidationError } from '../api';
import { PageMemories } from './page-memories';
import type { PollSource } from './resources';

export type PollClient = Pick<VideoClient, 'archives' | 'broadcasts' | 'render' | 'streams'>;

export interface VideoPollSourceOptions {
  /** Per-call time limit (default 15 s). */
  timeoutMs?: number;
  /** The items of list pages kept to compare the next read of each with (default `DEFAULT_MAX_ITEMS`; page-memories.ts). */
  pageMemoryItems?: number;
}

/**
 * Whether an error says the resource is not there: 404, a 400 for an id the service rejects
 * (the spec's answer to an unknown archive id), or an id the adapter itself refuses to send.
 */
function isAbsence(error: unknown): boolean {
  if (error instanceof VideoNotFoundError || error instanceof VideoValidationError) return true;
  return error instanceof VideoApiError && (error.status === 404 || error.status === 400);
}

/**
 * Whether a failure is one a second try at once may well not meet: the service's 5xx, or a
 * connection that dropped or could not be made. Not a 429 (its Retry-After asks to wait) nor a
 * timeout (the try already took the whole time limit).
 */
export function isPassingFailure(error: unknown): boolean {
  if (error instanceof VideoConnectionError) return true;
  return error instanceof VideoApiError && error.status !== undefined && error.status >= 500;
}

async function unlessAbsent<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    if (isAbsence(error)) return undefined;
    throw error;
  }
}

export function videoPollSource(clientFor: (projectName: string) => PollClient, options: VideoPollSourceOptions = {}): PollSource {
  const call: CallOptions = { maxRetries: 0, timeoutMs: options.timeoutMs ?? 15_000 };
  const memories = new PageMemories(options.pageMemoryItems);
  return {
    archives: {
      list: (project, query) => clientFor(project).archives.list(query, call),
      listEach: (project, query, visit) => clientFor(project).archives.listEach(query, visit, call, memories.of(project, 'archive', query)),
      get: (project, id) => unlessAbsent(() => clientFor(project).archives.get(id, call)),
    },
    broadcasts: {
      list: (project, query) => clientFor(project).broadcasts.list(query, call),
      listEach: (project, query, visit) => clientFor(project).broadcasts.listEach(query, visit, call, memories.of(project, 'broadcast', query)),
      get: (project, id) => unlessAbsent(() => clientFor(project).broadcasts.get(id, call)),
    },
    renders: {
      list: (project, query) => clientFor(project).render.list(query, call),
      listEach: (project, query, visit) => clientFor(project).render.listEach(query, visit, call, memories.of(project, 'render', query)),
      get: (project, id) => unlessAbsent(() => clientFor(project).render.get(id, call)),
    },
    streams: {
      // The service answers 404 for a session that has no stream (yet, or any more).
      list: async (project, sessionId) => (await unlessAbsent(() => clientFor(project).streams.list(sessionId, call)))?.items ?? [],
    },
    isPassing: isPassingFailure,
    cycleEnded: () => memories.release(),
  };
}
