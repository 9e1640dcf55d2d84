/**
 * Slack request signatures against the real HTTP receiver: every forged, stale, future-dated or
 * tampered request is refused with 401 before any listener runs, a replayed one is dropped as a
 * duplicate (an empty 200, as the delivery ledger answers), and nothing
 * happens (no Slack call, no request to the video service, the stream stays unmuted); a
 * correctly signed one is served.
 *
 * Bolt 5 checks staleness and the HMAC, but accepts timestamps in the future and replays.
 * `src/slack/signature-guard.ts` closes both and src/app.ts wires it in front of its receiver;
 * the "guarded" block below also runs the requests through a second guard placed in front of the
 * test app (a forwarding front on 127.0.0.1), and the last block checks the app's own receiver.
 */
import { type IncomingMessage, type Server, createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { guardSlackRequests, verifySignedRequest } from '../../src/slack/signature-guard';
import { CHANNEL, SIGNING_SECRET, USERS, slashCommandFields, startTestApp, type TestApp } from '../harness/app';
import { type SignedRequest, signBody, slackSignature } from '../harness/signing';

const FORM = 'application/x-www-form-urlencoded';
const nowSeconds = () => Math.floor(Date.now() / 1000);

interface Poster {
  (request: SignedRequest): Promise<number>;
}

/** A `/mute <stream> <session>` body as Slack would post it. */
function muteBody(t: TestApp, streamId: string, sessionId: string): string {
  return new URLSearchParams(
    slashCommandFields({
      command: '/mute',
      text: `${streamId} ${sessionId}`,
      user: USERS.moderator,
      channel: CHANNEL,
      responseUrl: t.slack.newResponseUrl(),
      triggerId: `1.${Date.now()}.sig`,
    }),
  ).toString();
}

function withHeaders(request: SignedRequest, change: (h: Record<string, string>) => void): SignedRequest {
  const headers = { ...request.headers };
  change(headers);
  return { body: request.body, headers };
}

/** The bad requests every receiver must refuse, built fresh for a stream of a seeded session. */
function forgeries(t: TestApp, streamId: string, sessionId: string): [string, SignedRequest][] {
  const body = () => muteBody(t, streamId, sessionId);
  const valid = () => signBody(SIGNING_SECRET, body(), FORM);
  return [
    ['no signature header', withHeaders(valid(), (h) => delete h['x-slack-signature'])],
    ['no timestamp header', withHeaders(valid(), (h) => delete h['x-slack-request-timestamp'])],
    [
      'no headers at all',
      withHeaders(valid(), (h) => {
        delete h['x-slack-signature'];
        delete h['x-slack-request-timestamp'];
      }),
    ],
    ['a wrong signature', withHeaders(valid(), (h) => (h['x-slack-signature'] = `v0=${'0'.repeat(64)}`))],
    ['a signature made with another secret', signBody('some-other-apps-signing-secret', body(), FORM)],
    ['an unknown signature version', withHeaders(valid(), (h) => (h['x-slack-signature'] = h['x-slack-signature']!.replace('v0=', 'v1=')))],
    ['a timestamp 6 minutes old', signBody(SIGNING_SECRET, body(), FORM, nowSeconds() - 360)],
    ['a timestamp a day old', signBody(SIGNING_SECRET, body(), FORM, nowSeconds() - 86_400)],
    [
      'a timestamp that is not a number',
      (() => {
        const b = body();
        return {
          body: b,
          headers: { 'content-type': FORM, 'x-slack-request-timestamp': 'soon', 'x-slack-signature': slackSignature(SIGNING_SECRET, Number.NaN, b) },
        };
      })(),
    ],
    [
      'a body changed after signing',
      (() => {
        const signed = valid();
        return { headers: signed.headers, body: signed.body.replace(encodeURIComponent(USERS.moderator), encodeURIComponent(USERS.admin)) };
      })(),
    ],
    [
      'a body with a field appended after signing',
      (() => {
        const signed = valid();
        return { headers: signed.headers, body: `${signed.body}&text=x` };
      })(),
    ],
  ];
}

/** The checks that need the guard: Bolt alone lets them through. */
function futureDated(t: TestApp, streamId: string, sessionId: string): [string, SignedRequest][] {
  return [
    ['a timestamp 6 minutes ahead', signBody(SIGNING_SECRET, muteBody(t, streamId, sessionId), FORM, nowSeconds() + 360)],
    ['a timestamp a year ahead', signBody(SIGNING_SECRET, muteBody(t, streamId, sessionId), FORM, nowSeconds() + 365 * 86_400)],
  ];
}

function expectNothingHappened(t: TestApp, sinceSlack: number, emulatorRequestsBefore: number, streamId: string, sessionId: string): void {
  expect(t.slack.calls.filter((c) => c.seq >= sinceSlack)).toEqual([]);
  expect(t.slack.responses.filter((r) => r.seq >= sinceSlack)).toEqual([]);
  expect(t.emulator.control.requestLog().length).toBe(emulatorRequestsBefore);
  expect(t.emulator.control.getSession(t.project.apiKey, sessionId).streams.find((s) => s.streamId === streamId)?.muted).toBe(false);
}

function refusalTests(name: string, poster: () => Poster, app: () => TestApp): void {
  describe(name, () => {
    it.each([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10])('refuses forgery #%i with 401 and does nothing', async (index) => {
      const t = app();
      const seeded = t.seedSession({ streams: 1 });
      const [label, forged] = forgeries(t, seeded.streams[0]!, seeded.sessionId)[index]!;
      const since = t.slack.mark();
      const before = t.emulator.control.requestLog().length;
      expect({ label, status: await poster()(forged) }).toEqual({ label, status: 401 });
      expectNothingHappened(t, since, before, seeded.streams[0]!, seeded.sessionId);
    });

    it('serves a correctly signed request: the stream is muted and the channel told', async () => {
      const t = app();
      const seeded = t.seedSession({ streams: 1 });
      const since = t.slack.mark();
      expect(await poster()(signBody(SIGNING_SECRET, muteBody(t, seeded.streams[0]!, seeded.sessionId), FORM))).toBe(200);
      await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL, { since });
      expect(t.emulator.control.getSession(t.project.apiKey, seeded.sessionId).streams[0]!.muted).toBe(true);
    });
  });
}

describe('Slack request signatures', () => {
  let t: TestApp;
  let front: Server;
  let frontUrl: string;

  beforeAll(async () => {
    t = await startTestApp();
    // Bolt checks its token once at start-up; that call is not a request's work.
    await t.waitForSlackCall('auth.test');
    // The guard in front of the real app: it forwards what it accepts, with the body it read.
    const forward = (req: IncomingMessage & { rawBody?: Buffer }, res: import('node:http').ServerResponse) => {
      const target = new URL(req.url ?? '/', t.url);
      const out = httpRequest(target, { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 500, answer.headers);
        answer.pipe(res);
      });
      out.on('error', () => res.writeHead(502).end());
      out.end(req.rawBody);
    };
    front = createServer(guardSlackRequests(forward as never, { signingSecret: SIGNING_SECRET, path: '/slack/events' }));
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    frontUrl = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => front.close(() => resolve()));
    await t.close();
  });

  const postTo =
    (base: () => string): Poster =>
    async (request) => {
      const res = await fetch(`${base()}/slack/events`, { method: 'POST', headers: request.headers, body: request.body });
      await res.arrayBuffer();
      return res.status;
    };

  refusalTests(
    'the bare receiver (Bolt)',
    () => postTo(() => t.url),
    () => t,
  );
  refusalTests(
    'behind the signature guard',
    () => postTo(() => frontUrl),
    () => t,
  );

  describe('behind the signature guard', () => {
    it.each([0, 1])('refuses future-dated request #%i with 401 and does nothing', async (index) => {
      const seeded = t.seedSession({ streams: 1 });
      const [label, forged] = futureDated(t, seeded.streams[0]!, seeded.sessionId)[index]!;
      const since = t.slack.mark();
      const before = t.emulator.control.requestLog().length;
      expect({ label, status: await postTo(() => frontUrl)(forged) }).toEqual({ label, status: 401 });
      expectNothingHappened(t, since, before, seeded.streams[0]!, seeded.sessionId);
    });

    it('accepts a timestamp a little ahead (clock drift within 5 minutes)', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const since = t.slack.mark();
      expect(await postTo(() => frontUrl)(signBody(SIGNING_SECRET, muteBody(t, seeded.streams[0]!, seeded.sessionId), FORM, nowSeconds() + 60))).toBe(200);
      await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL, { since });
    });

    it('serves a signed request once: its replay is dropped as a duplicate and does nothing more', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const signed = signBody(SIGNING_SECRET, muteBody(t, seeded.streams[0]!, seeded.sessionId), FORM);
      const since = t.slack.mark();
      expect(await postTo(() => frontUrl)(signed)).toBe(200);
      await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL, { since });
      const afterFirst = t.slack.mark();
      const requestsAfterFirst = t.emulator.control.requestLog().length;
      expect(await postTo(() => frontUrl)(signed)).toBe(200);
      // The same signature with junk after it: Bolt would read only `v0=<hex>`; the guard refuses the form.
      expect(await postTo(() => frontUrl)(withHeaders(signed, (h) => (h['x-slack-signature'] = `${h['x-slack-signature']}=x`)))).toBe(401);
      expect(t.slack.calls.filter((c) => c.seq >= afterFirst)).toEqual([]);
      expect(t.emulator.control.requestLog().length).toBe(requestsAfterFirst);
    });

    it('lets Slack’s unsigned SSL check through to Bolt, which answers it without work', async () => {
      const since = t.slack.mark();
      const res = await fetch(`${frontUrl}/slack/events`, { method: 'POST', headers: { 'content-type': FORM }, body: 'ssl_check=1&token=x' });
      expect(res.status).toBe(200);
      expect(t.slack.calls.filter((c) => c.seq >= since)).toEqual([]);
    });

    it('leaves other routes alone', async () => {
      expect((await fetch(`${frontUrl}/healthz`)).status).toBe(200);
    });
  });

  describe('the app’s own receiver (the guard wired in src/app.ts)', () => {
    it('refuses a request dated 6 minutes ahead', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const [, forged] = futureDated(t, seeded.streams[0]!, seeded.sessionId)[0]!;
      expect(await postTo(() => t.url)(forged)).toBe(401);
    });

    it('drops a replayed request as a duplicate, doing nothing', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const signed = signBody(SIGNING_SECRET, muteBody(t, seeded.streams[0]!, seeded.sessionId), FORM);
      const since = t.slack.mark();
      expect(await postTo(() => t.url)(signed)).toBe(200);
      await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL, { since });
      const afterFirst = t.slack.mark();
      const requestsAfterFirst = t.emulator.control.requestLog().length;
      expect(await postTo(() => t.url)(signed)).toBe(200);
      expect(t.slack.calls.filter((c) => c.seq >= afterFirst)).toEqual([]);
      expect(t.emulator.control.requestLog().length).toBe(requestsAfterFirst);
    });

    it('drops a byte-for-byte copy as a duplicate whatever its retry headers say, without doing the work again', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const signed = signBody(SIGNING_SECRET, muteBody(t, seeded.streams[0]!, seeded.sessionId), FORM);
      const since = t.slack.mark();
      expect(await postTo(() => t.url)(signed)).toBe(200);
      await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL, { since });
      const mutes = () => t.emulator.control.requestLog().filter((r) => r.method === 'POST' && r.path.endsWith('/mute')).length;
      const mutedOnce = mutes();
      const retry = withHeaders(signed, (h) => {
        h['x-slack-retry-num'] = '1';
        h['x-slack-retry-reason'] = 'http_timeout';
      });
      expect(await postTo(() => t.url)(retry)).toBe(200);
      expect(mutes()).toBe(mutedOnce);
      expect(t.slack.calls.filter((c) => c.seq >= since && c.method === 'chat.postMessage')).toHaveLength(1);
    });
  });
});

describe('POST /callbacks/video/<token>', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ poller: true });
  });
  afterAll(() => t.close());

  it('answers 404 to every token but the configured one, and polls nothing', async () => {
    const token = t.poller!.callbackToken;
    const before = t.emulator.control.requestLog().length;
    for (const wrong of ['not-the-token', token.toUpperCase(), `${token}x`, token.slice(0, -1), ' ' + token, encodeURIComponent(`${token}/../${token}`)]) {
      const res = await fetch(`${t.url}/callbacks/video/${wrong}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"id":"x"}' });
      expect({ wrong, status: res.status }).toEqual({ wrong, status: 404 });
    }
    expect((await fetch(`${t.url}/callbacks/video/`, { method: 'POST', body: '{}' })).status).toBe(404);
    expect(t.emulator.control.requestLog().length).toBe(before);
    const right = await fetch(`${t.url}/callbacks/video/${token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(right.status).toBe(202);
  });
});

describe('the signature guard on its own', () => {
  const SECRET = 'guard-secret';
  const command = (text: string) => Buffer.from(new URLSearchParams({ command: '/mute', text, user_id: 'U1', channel_id: 'C1', team_id: 'T1' }).toString());
  const body = command('s1');
  const at = 1_800_000_000;
  const sign = (ts: number, b: Buffer = body) => slackSignature(SECRET, ts, b.toString('utf8'));

  it('checks the timestamp both ways, then the signature (pure)', () => {
    const now = at * 1000;
    const verify = (headers: { signature?: string; timestamp?: string }) =>
      verifySignedRequest(SECRET, { signature: headers.signature, timestamp: headers.timestamp }, body, now, 300);
    expect(verify({ signature: sign(at), timestamp: String(at) })).toEqual({ ok: true, signature: sign(at).slice(3) });
    expect(verify({ signature: sign(at - 300), timestamp: String(at - 300) }).ok).toBe(true);
    expect(verify({ signature: sign(at + 300), timestamp: String(at + 300) }).ok).toBe(true);
    expect(verify({ signature: sign(at - 301), timestamp: String(at - 301) })).toEqual({ ok: false, reason: 'stale timestamp' });
    expect(verify({ signature: sign(at + 301), timestamp: String(at + 301) })).toEqual({ ok: false, reason: 'timestamp in the future' });
    expect(verify({ signature: sign(at), timestamp: `${at}.5` })).toEqual({ ok: false, reason: 'x-slack-request-timestamp is not whole seconds' });
    expect(verify({ signature: sign(at).toUpperCase(), timestamp: String(at) }).ok).toBe(false);
    expect(verify({ signature: `${sign(at)}=`, timestamp: String(at) }).ok).toBe(false);
    expect(verify({ timestamp: String(at) })).toEqual({ ok: false, reason: 'no x-slack-signature header' });
    expect(verify({ signature: sign(at) })).toEqual({ ok: false, reason: 'no x-slack-request-timestamp header' });
  });

  it('remembers signatures for the window only, and at most maxRemembered of them', async () => {
    let now = at * 1000;
    let served = 0;
    const guard = guardSlackRequests(
      (_req, res) => {
        served++;
        res.writeHead(200).end();
      },
      { signingSecret: SECRET, path: '/slack/events', now: () => now, maxRemembered: 2 },
    );
    const server = createServer(guard);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`;
    const send = async (ts: number, b: Buffer = body) =>
      (
        await fetch(url, {
          method: 'POST',
          headers: { 'content-type': FORM, 'x-slack-request-timestamp': String(ts), 'x-slack-signature': sign(ts, b) },
          body: b,
        })
      ).status;
    try {
      expect(await send(at)).toBe(200);
      // A copy: answered as a duplicate, not served.
      expect(await send(at)).toBe(200);
      // Two newer signatures push the first out of a memory of two; by then its timestamp is old anyway.
      expect(await send(at, command('s2'))).toBe(200);
      expect(await send(at, command('s3'))).toBe(200);
      now += 301_000;
      expect(await send(at)).toBe(401);
      expect(served).toBe(3);
      const big = Buffer.alloc(4 * 1024 * 1024 + 1, 'a');
      expect(await send(Math.floor(now / 1000), big)).toBe(413);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
