/**
 * What is known of a failed call's outcome (mayHaveTakenEffect) and how it is worded
 * (uncertainOutcome), as a table: reads never "may have been made", changes that never left
 * were not made, changes whose answer was lost or unreadable may (or probably) were.
 */
import { VideoApiError, VideoConnectionError, VideoNotFoundError, VideoTimeoutError } from '../../src/api';
import { mayHaveTakenEffect } from '../../src/api/errors';
import { uncertainOutcome } from '../../src/views/errors';

const at = { path: '/v2/project/k/archive' };

describe('mayHaveTakenEffect', () => {
  it.each([
    ['POST reset after sending', new VideoConnectionError('x', { ...at, method: 'POST', code: 'ECONNRESET' }), true],
    ['POST refused connection', new VideoConnectionError('x', { ...at, method: 'POST', code: 'ECONNREFUSED' }), false],
    ['POST no headers in time', new VideoTimeoutError('x', { ...at, method: 'POST', code: 'UND_ERR_HEADERS_TIMEOUT' }), true],
    ['POST connect timeout', new VideoTimeoutError('x', { ...at, method: 'POST', code: 'UND_ERR_CONNECT_TIMEOUT' }), false],
    ['POST whole-call deadline', new VideoTimeoutError('x', { ...at, method: 'POST', code: 'ETIMEDOUT' }), true],
    ['POST 200 with a malformed body', new VideoApiError('x', { ...at, method: 'POST', status: 200, code: 'MALFORMED_RESPONSE' }), true],
    ['POST 500', new VideoApiError('x', { ...at, method: 'POST', status: 500 }), false],
    ['POST 404', new VideoNotFoundError('x', { ...at, method: 'POST', status: 404 }), false],
    ['GET reset', new VideoConnectionError('x', { ...at, method: 'GET', code: 'ECONNRESET' }), false],
    ['GET malformed', new VideoApiError('x', { ...at, method: 'GET', status: 200 }), false],
    ['DELETE timeout', new VideoTimeoutError('x', { ...at, method: 'DELETE', code: 'UND_ERR_HEADERS_TIMEOUT' }), true],
    ['no method known', new VideoConnectionError('x'), false],
  ])('%s → %s', (_name, error, expected) => {
    expect(mayHaveTakenEffect(error)).toBe(expected);
  });
});

describe('uncertainOutcome', () => {
  const check = '`/record list`';
  it.each([
    [
      'POST reset',
      new VideoConnectionError('x', { ...at, method: 'POST', code: 'ECONNRESET' }),
      /dropped the connection before answering, so the change may or may not have been made\. Check with `\/record list`, then try again if needed\./,
    ],
    [
      'POST timeout',
      new VideoTimeoutError('x', { ...at, method: 'POST', code: 'UND_ERR_HEADERS_TIMEOUT' }),
      /did not answer in time, so the change may or may not have been made/,
    ],
    [
      'POST malformed 200',
      new VideoApiError('x', { ...at, method: 'POST', status: 200 }),
      /accepted the request but its answer could not be read, so the change was probably made\. Check with `\/record list` before trying again\./,
    ],
    [
      'POST refused connection',
      new VideoConnectionError('x', { ...at, method: 'POST', code: 'ECONNREFUSED' }),
      /^The video service could not be reached; nothing was changed\./,
    ],
    [
      'GET timeout',
      new VideoTimeoutError('x', { ...at, method: 'GET', code: 'UND_ERR_HEADERS_TIMEOUT' }),
      /^The video service did not answer in time; nothing was changed\./,
    ],
    ['GET malformed', new VideoApiError('x', { ...at, method: 'GET', status: 200 }), /sent an answer that could not be read; nothing was changed/],
  ])('%s', (_name, error, pattern) => {
    expect(uncertainOutcome(error, check)).toMatch(pattern);
  });

  it('leaves answers that said what happened to the other sentences', () => {
    expect(uncertainOutcome(new VideoApiError('x', { ...at, method: 'POST', status: 500 }), check)).toBeUndefined();
    expect(uncertainOutcome(new Error('x'), check)).toBeUndefined();
  });
});
