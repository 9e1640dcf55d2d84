/**
 * The scrubbing mechanism on its own (src/scrub.ts), for the secrets the security suite cannot
 * make the service echo end to end — client tokens the app makes for a call — and for how long
 * and where a secret is remembered.
 */
import { type RequestContext, runInRequest } from '../../src/request-context';
import { SCRUBBED, forgetSecrets, rememberConfigured, rememberSent, scrub, scrubDeep } from '../../src/scrub';
import { createLogger } from '../../src/log';

const request = (): RequestContext => ({ requestId: 'r1', kind: 'command', name: '/render', outcome: 'ok' });

describe('src/scrub.ts', () => {
  afterEach(() => forgetSecrets());

  it('scrubs a client token sent with a call from the rest of its request, in any spelling', () => {
    const token = 'T1==cGFydG5lcl9pZD00NyZzaWc9YWJj';
    runInRequest(request(), () => {
      rememberSent([token]);
      expect(scrub(`the service said: bad token ${token}`)).toBe(`the service said: bad token ${SCRUBBED}`);
      expect(scrub(`url ?token=${encodeURIComponent(token)}`)).toBe(`url ?token=${SCRUBBED}`);
      expect(scrubDeep({ blocks: [{ text: { text: token } }], n: 3 })).toEqual({ blocks: [{ text: { text: SCRUBBED } }], n: 3 });
    });
    // Long enough never to be a word: remembered by the whole process for a day (the poller's lines about it too).
    expect(scrub(token)).toBe(SCRUBBED);
  });

  it('keeps a short secret (a 6-character SIP password) to its own request, so ordinary words elsewhere stay', () => {
    runInRequest(request(), () => {
      rememberSent(['hunter']);
      expect(scrub('password hunter refused')).toBe(`password ${SCRUBBED} refused`);
    });
    expect(scrub('the hunter app')).toBe('the hunter app');
    runInRequest(request(), () => expect(scrub('the hunter app')).toBe('the hunter app'));
  });

  it('forgets a sent secret after a day; configured secrets stay for the life of the process', () => {
    const now = Date.now();
    rememberSent(['stream-key-abcdef123'], now - 25 * 60 * 60_000);
    rememberSent(['another-key-000000'], now);
    rememberConfigured(['project-secret-xyz']);
    expect(scrub('stream-key-abcdef123 another-key-000000 project-secret-xyz')).toBe(`stream-key-abcdef123 ${SCRUBBED} ${SCRUBBED}`);
  });

  it('scrubs log lines too', () => {
    const lines: string[] = [];
    rememberConfigured(['xyz-secret-value-1']);
    createLogger({ level: 'info', stream: { write: (line: string) => lines.push(line) } }).info('failed', {
      reason: 'echo xyz-secret-value-1',
      error: new Error('xyz-secret-value-1 rejected'),
    });
    expect(lines.join('')).not.toContain('xyz-secret-value-1');
    expect(lines.join('')).toContain(SCRUBBED);
  });
});
