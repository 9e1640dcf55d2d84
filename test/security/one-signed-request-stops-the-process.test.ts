/**
 * Finding 5, "One signed request stops the process": a body `payload=null` (or a JSON array)
 * made Bolt's receiver throw; nothing handled the rejection and Node exited.
 *
 * Now such a body gets a 400 before Bolt sees it, the process keeps serving (a command right
 * after works), and process-level handlers log whatever still escapes: an unhandled rejection
 * is logged and the process goes on; an uncaught exception is logged, then the process drains
 * and exits 1.
 */
import { EventEmitter } from 'node:events';
import { handleProcessFailures } from '../../src/process-failures';
import { CHANNEL, SIGNING_SECRET, startTestApp, type TestApp } from '../harness/app';
import { signBody, signedEvent } from '../harness/signing';
import { collectUnhandledRejections } from './support';

const FORM = 'application/x-www-form-urlencoded';

describe('finding 5: one signed request stops the process', () => {
  let t: TestApp;
  const rejections = collectUnhandledRejections();

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const bodies: [string, string, string][] = [
    ['payload=null', 'payload=null', FORM],
    ['payload=[]', 'payload=%5B%5D', FORM],
    ['payload="text"', 'payload=%22text%22', FORM],
    ['payload=42', 'payload=42', FORM],
    ['payload that is not JSON', 'payload=%7Bnope', FORM],
    ['a JSON array', '[]', 'application/json'],
    ['JSON null', 'null', 'application/json'],
    ['a JSON string', '"event"', 'application/json'],
    ['an event whose event is null', JSON.stringify({ type: 'event_callback', event: null }), 'application/json'],
    ['a url_verification without a challenge', JSON.stringify({ type: 'url_verification' }), 'application/json'],
  ];

  it.each(bodies)('%s: 400, and the process keeps serving', async (_name, body, contentType) => {
    const answer = await t.post(signBody(SIGNING_SECRET, body, contentType));
    expect(answer.status).toBe(400);
    const res = await t.slash('/video', 'aliases');
    const reply = await res.waitForResponse();
    expect(reply.body.response_type).toBe('ephemeral');
    expect(rejections).toEqual([]);
  });

  it('the legitimate path still works: a url_verification and an App Home event are served', async () => {
    const verification = await t.post(signedEvent(SIGNING_SECRET, { type: 'url_verification', challenge: 'abc123', token: 'x' }));
    expect(verification).toEqual({ status: 200, body: expect.stringContaining('abc123') });
    const since = t.slack.mark();
    expect(await t.event({ type: 'app_home_opened', user: 'U0VIEW', channel: CHANNEL, tab: 'home', event_ts: '1.1' })).toBe(200);
    await t.waitForSlackCall('views.publish', () => true, { since });
  });
});

describe('finding 5: what the process does with a failure nothing caught', () => {
  function harness() {
    const proc = new EventEmitter();
    const logged: [string, Record<string, unknown> | undefined][] = [];
    const exits: number[] = [];
    let stops = 0;
    handleProcessFailures(
      proc as never,
      { error: (message, fields) => logged.push([message, fields]) },
      {
        stop: async () => {
          stops++;
        },
        exit: (code) => exits.push(code),
      },
    );
    return { proc, logged, exits, stops: () => stops };
  }

  it('logs an unhandled rejection and goes on (no drain, no exit)', async () => {
    const h = harness();
    h.proc.emit('unhandledRejection', new Error('a listener forgot to await'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(h.logged).toEqual([
      ['unhandled promise rejection; the process goes on serving', { error: expect.objectContaining({ message: 'a listener forgot to await' }) }],
    ]);
    expect(h.stops()).toBe(0);
    expect(h.exits).toEqual([]);
  });

  it('logs an uncaught exception, drains once, then exits 1', async () => {
    const h = harness();
    h.proc.emit('uncaughtException', new Error('state half-changed'));
    h.proc.emit('uncaughtException', new Error('another one while draining'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(h.logged.map(([message]) => message)).toEqual(['uncaught exception; draining and exiting', 'uncaught exception; draining and exiting']);
    expect(h.stops()).toBe(1);
    expect(h.exits).toEqual([1]);
  });
});
