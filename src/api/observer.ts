/**
 * What the adapter tells an observer about each HTTP exchange with the service (each attempt,
 * retries included), so metrics and logs can follow the calls without the adapter knowing
 * about either.
 */
import type { HttpMethod } from './retry';

export interface VideoRequestEvent {
  /** Method and path with its ids replaced, e.g. `POST session/:id/mute` (see `operationName`). */
  operation: string;
  method: HttpMethod;
  /** The HTTP status as text, or `timeout`, `network` or `aborted` when no answer came. */
  status: string;
  durationMs: number;
  /** 0 for the first try, 1 for the first retry… */
  retry: number;
  /** The request id sent as `X-Request-Id`, when there was one. */
  requestId?: string;
}

export type VideoRequestObserver = (event: VideoRequestEvent) => void;

/** Path segments the spec names; anything else in a path is an id, a key or a name. */
const LITERAL_SEGMENTS = new Set([
  'v2',
  'project',
  'session',
  'create',
  'signal',
  'connection',
  'stream',
  'streams',
  'mute',
  'archive',
  'stop',
  'storage',
  'layout',
  'dial',
  'play-dtmf',
  'broadcast',
  'captions',
  'render',
  'connect',
  'refreshSecret',
]);

const PROJECT_PREFIX = '/v2/project/:id/';

/**
 * A label for the call that does not grow with the data: `GET archive/:id`,
 * `POST session/:id/stream/:id/mute`, `POST session/create`, `GET project`.
 */
export function operationName(method: HttpMethod, path: string): string {
  const pathOnly = path.split('?')[0] ?? '';
  const template = pathOnly
    .split('/')
    .map((segment, index) => (index === 0 || segment === '' || LITERAL_SEGMENTS.has(segment) ? segment : ':id'))
    .join('/')
    .replace(/\/+$/, '');
  const short = template.startsWith(PROJECT_PREFIX) ? template.slice(PROJECT_PREFIX.length) : template.replace(/^\/(v2\/)?/, '');
  return `${method} ${short}`;
}
