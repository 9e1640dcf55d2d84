import type { ListQuery, StreamChange } from '../backends/archives';
import { badRequest } from '../errors';
import { isSessionId } from '../ids';
import { Fields, queryInteger } from '../validate';

export const MAX_LIST_COUNT = 1000;
export const DEFAULT_LIST_COUNT = 50;

/** `offset`, `count` (default 50, at most 1000) and an optional `sessionId` filter. */
export function parseListQuery(query: URLSearchParams, withSession: boolean): ListQuery {
  const offset = queryInteger(query, 'offset', { min: 0, max: Number.MAX_SAFE_INTEGER }) ?? 0;
  const count = queryInteger(query, 'count', { min: 0, max: MAX_LIST_COUNT }) ?? DEFAULT_LIST_COUNT;
  const sessionId = withSession ? query.get('sessionId') : null;
  if (sessionId === null || sessionId === '') return { offset, count };
  if (!isSessionId(sessionId)) throw badRequest('Invalid sessionId');
  return { offset, count, sessionId };
}

/** `{addStream, hasAudio?, hasVideo?}` or `{removeStream}` for manual stream selection. */
export function parseStreamChange(body: unknown): StreamChange {
  const fields = Fields.of(body);
  const add = fields.string('addStream');
  const remove = fields.string('removeStream');
  if ((add === undefined) === (remove === undefined)) {
    throw badRequest("Exactly one of 'addStream' or 'removeStream' is required");
  }
  if (remove !== undefined) return { removeStream: remove };
  const hasAudio = fields.boolean('hasAudio') ?? true;
  const hasVideo = fields.boolean('hasVideo') ?? true;
  if (!hasAudio && !hasVideo) throw badRequest('hasAudio and hasVideo cannot both be false');
  return { addStream: add ?? '', hasAudio, hasVideo };
}
