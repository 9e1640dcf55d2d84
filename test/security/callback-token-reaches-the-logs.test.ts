/**
 * Finding 6, "The callback token reaches the logs": Bolt's "Unhandled HTTP request …
 * /callbacks/video/<token>/extra" line carried it, and a wrong token and an unknown path
 * answered differently.
 *
 * Now every path nothing serves, every wrong token and every other method get the one not-found
 * answer, and no log line carries the token; the right token is still served.
 */
import { startTestApp, type TestApp } from '../harness/app';
import { logCapture } from './support';

describe('finding 6: the callback token reaches the logs', () => {
  let t: TestApp;
  const logs = logCapture();
  let token = '';

  beforeAll(async () => {
    t = await startTestApp({ poller: true, logLevel: 'debug', logStream: logs.stream });
    token = t.poller!.callbackToken;
  });
  afterAll(() => t.close());

  const send = async (path: string, method = 'POST') => {
    const res = await fetch(`${t.url}${path}`, { method, ...(method === 'POST' ? { headers: { 'content-type': 'application/json' }, body: '{}' } : {}) });
    return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
  };

  it('answers every wrong path, token and method alike, and logs none of them with the token', async () => {
    const before = logs.records.length;
    const answers = await Promise.all([
      send(`/callbacks/video/${token}/extra`),
      send(`/callbacks/video/${token}`, 'GET'),
      send(`/callbacks/video/${token}x`),
      send('/callbacks/video/not-the-token'),
      send(`/callbacks/${token}`),
      send('/no/such/path'),
      send(`/no/such/path?token=${token}`),
      send('/slack/event'),
    ]);
    expect(new Set(answers.map((a) => JSON.stringify(a)))).toEqual(
      new Set([JSON.stringify({ status: 404, type: 'application/json', body: '{"ok":false,"error":"not_found"}' })]),
    );
    const written = JSON.stringify(logs.records.slice(before));
    expect(written).not.toContain(token);
    // The lines are there (at debug), just without the secret.
    expect(written).toContain('/callbacks/…');
  });

  it('the legitimate path still works: the right token is served (202)', async () => {
    expect(await send(`/callbacks/video/${token}`)).toEqual(expect.objectContaining({ status: 202 }));
  });
});
