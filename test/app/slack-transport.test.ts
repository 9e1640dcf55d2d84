import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebClient } from '@slack/web-api';
import { Agent } from '../../src/api/undici';
import { slackTransport, threadSlackTransport } from '../../src/slack/transport';

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A server on 127.0.0.1 that records each request and answers with `answer`. */
async function server(answer: (req: Received, res: ServerResponse) => void) {
  const received: Received[] = [];
  const http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(request);
      answer(request, res);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return { base, received, close: () => new Promise<void>((resolve) => http.close(() => resolve())) };
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

describe('slackTransport', () => {
  let agent: Agent;
  let fallbackCalls: unknown[];
  const fallback: typeof fetch = async (input, init) => {
    fallbackCalls.push(input);
    return fetch(input, init);
  };
  beforeEach(() => {
    agent = new Agent();
    fallbackCalls = [];
  });
  afterEach(() => agent.close());

  it('posts a string body with its headers and hands back status, headers and body', async () => {
    const slack = await server((_req, res) => json(res, 200, { ok: true, ts: '1.000100' }, { 'x-oauth-scopes': 'chat:write', 'retry-after': '3' }));
    try {
      const transport = slackTransport(agent, fallback);
      const response = await transport(`${slack.base}/api/chat.postMessage?x=1`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: 'Bearer xoxb-1' },
        body: 'channel=C1&text=caf%C3%A9',
      });
      expect(slack.received).toEqual([
        expect.objectContaining({
          method: 'POST',
          url: '/api/chat.postMessage?x=1',
          body: 'channel=C1&text=caf%C3%A9',
          headers: expect.objectContaining({ 'content-type': 'application/x-www-form-urlencoded', authorization: 'Bearer xoxb-1' }),
        }),
      ]);
      expect([response.status, response.ok, response.url]).toEqual([200, true, `${slack.base}/api/chat.postMessage?x=1`]);
      expect(response.headers.get('X-OAuth-Scopes')).toBe('chat:write');
      expect(response.headers.get('absent')).toBeNull();
      expect(Object.fromEntries(response.headers.entries())).toMatchObject({ 'retry-after': '3', 'content-type': 'application/json' });
      expect(await response.json()).toEqual({ ok: true, ts: '1.000100' });
      expect(fallbackCalls).toEqual([]);
    } finally {
      await slack.close();
    }
  });

  it('is one transport, so one connection pool, for every Slack call of a thread', () => {
    expect(threadSlackTransport()).toBe(threadSlackTransport());
  });

  it('serves WebClient end to end: results, an HTTP error with its body, a 429 rejected with its wait', async () => {
    let next: (res: ServerResponse) => void = (res) => json(res, 200, { ok: true, channel: 'C1', ts: '1.5' });
    const slack = await server((_req, res) => next(res));
    try {
      const client = new WebClient('xoxb-1', {
        slackApiUrl: `${slack.base}/api/`,
        fetch: slackTransport(agent, fallback),
        retryConfig: { retries: 0 },
        rejectRateLimitedCalls: true,
      });
      await expect(client.chat.postMessage({ channel: 'C1', text: 'hi', blocks: [{ type: 'divider' }] })).resolves.toMatchObject({ ok: true, ts: '1.5' });
      expect(new URLSearchParams(slack.received[0]!.body).get('blocks')).toBe('[{"type":"divider"}]');
      next = (res) => json(res, 503, { ok: false });
      await expect(client.chat.postMessage({ channel: 'C1', text: 'hi' })).rejects.toMatchObject({
        code: 'slack_webapi_http_error',
        statusCode: 503,
        body: { ok: false },
      });
      next = (res) => json(res, 429, { ok: false, error: 'ratelimited' }, { 'retry-after': '7' });
      await expect(client.chat.postMessage({ channel: 'C1', text: 'hi' })).rejects.toMatchObject({ code: 'slack_webapi_rate_limited_error', retryAfter: 7 });
      expect(fallbackCalls).toEqual([]);
    } finally {
      await slack.close();
    }
  });

  it('fails as fetch does: a refused connection is "fetch failed" with its cause, an abort is the signal’s reason', async () => {
    const slack = await server(() => undefined /* never answers */);
    const closed = await server(() => undefined);
    await closed.close();
    try {
      const transport = slackTransport(agent, fallback);
      const refused = await transport(`${closed.base}/api/auth.test`, { method: 'POST', body: '' }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(TypeError);
      expect(refused).toMatchObject({ message: 'fetch failed', cause: expect.objectContaining({ code: 'ECONNREFUSED' }) });
      const controller = new AbortController();
      const call = transport(`${slack.base}/api/auth.test`, { method: 'POST', body: '', signal: controller.signal });
      const reason = new Error('gave up');
      setImmediate(() => controller.abort(reason));
      await expect(call).rejects.toBe(reason);
    } finally {
      await slack.close();
    }
  });

  it('leaves to the platform’s fetch what it does not take: form data, a Request, a redirect to follow', async () => {
    const slack = await server((req, res) => {
      if (req.url === '/moved') {
        res.writeHead(307, { location: '/here' });
        res.end();
      } else json(res, 200, { ok: true, url: req.url });
    });
    try {
      const transport = slackTransport(agent, fallback);
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array([1, 2, 3])]), 'a.png');
      await transport(`${slack.base}/upload`, { method: 'POST', body: form });
      expect(slack.received[0]!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
      await transport(new Request(`${slack.base}/request`));
      const followed = await transport(`${slack.base}/moved`, { method: 'POST', body: 'a=1' });
      expect(await followed.json()).toEqual({ ok: true, url: '/here' });
      expect(fallbackCalls).toEqual([`${slack.base}/upload`, expect.any(Request), `${slack.base}/moved`]);
      await expect(transport(`${slack.base}/moved`, { method: 'POST', body: 'a=1', redirect: 'error' })).rejects.toThrow('fetch failed');
      expect(fallbackCalls).toHaveLength(3);
    } finally {
      await slack.close();
    }
  });
});
