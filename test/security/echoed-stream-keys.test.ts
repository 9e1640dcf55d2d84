/**
 * Finding 3, "Echoed stream keys": when the service echoed an RTMP stream key in an error, the
 * key reached the asker's reply and the warn log (the broadcast start passed no secrets to scrub).
 *
 * Now one mechanism (src/scrub.ts) scrubs every secret a user or the configuration gave from
 * echoed error texts, replies, audit rows and log lines. Operation by operation: the service
 * answers with an error that echoes the secret; nothing the app writes afterwards carries it,
 * and the `[redacted]` left in its place shows the echo was there to scrub. The same operation
 * without the fault still works.
 */
import { ACTION, BLOCK, CALLBACK, RECORD_ACTION, RECORD_BLOCK, RECORD_CALLBACK } from '../../src/views/ids';
import { BOT_TOKEN, CHANNEL, TEAM, USERS, startTestApp, type TestApp } from '../harness/app';

const STREAM_KEY = 'live-key-9f8e7d6c5b4a';
const SECRET_KEY = 's3-secret-Q1w2E3r4T5y6';
const PASSWORD = 'sip-pass-Zx9Cv8Bn7';

describe('finding 3: echoed stream keys (and every other secret given)', () => {
  let t: TestApp;
  const lines: string[] = [];

  beforeAll(async () => {
    t = await startTestApp({ logLevel: 'debug', logStream: { write: (line: string) => lines.push(line) } });
  });
  afterAll(() => t.close());

  /** Everything written since `since`: fake Slack calls and responses, log lines, audit rows. */
  async function everythingSince(sinceSeq: number, sinceLine: number): Promise<string> {
    const slack = [...t.slack.calls.filter((c) => c.seq >= sinceSeq), ...t.slack.responses.filter((r) => r.seq >= sinceSeq)].map((x) => JSON.stringify(x.body));
    const audit = (await t.store.listAudit(TEAM, 20)).map((row) => JSON.stringify(row));
    return [...slack, ...lines.slice(sinceLine), ...audit].join('\n');
  }

  function echoing(method: string, path: string, secret: string): void {
    t.emulator.control.injectFault({
      method,
      path,
      kind: 'status',
      status: 400,
      body: JSON.stringify({ code: 400, message: `invalid value ${secret} (${encodeURIComponent(secret)})` }),
    });
  }

  async function openInSlack(view: unknown): Promise<string> {
    const res = await fetch(`${t.slack.apiUrl}views.open`, {
      method: 'POST',
      headers: { authorization: `Bearer ${BOT_TOKEN}`, 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ trigger_id: 'test.trigger', view }),
    });
    return ((await res.json()) as { view: { id: string } }).view.id;
  }

  it('broadcast start: an RTMP stream key the service echoes', async () => {
    const seeded = t.seedSession({ streams: 1 });
    const text = `start ${seeded.sessionId} --rtmp yt=rtmps://live.example.com:443/app/${STREAM_KEY}`;
    echoing('POST', '/broadcast', STREAM_KEY);
    const [seq, line] = [t.slack.mark(), lines.length];
    const res = await t.slash('/broadcast', text);
    const reply = await res.waitForResponse();
    expect(JSON.stringify(reply.body)).toContain('[redacted]');
    const written = await everythingSince(seq, line);
    expect(written).toContain('[redacted]');
    expect(written).not.toContain(STREAM_KEY);
    // Without the fault, the broadcast starts and the key went to the service.
    const ok = await t.slash('/broadcast', text);
    await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL && JSON.stringify(c.body).includes('broadcast'), { since: seq });
    expect(ok.status).toBe(200);
    expect(t.emulator.control.requestLog().some((r) => r.method === 'POST' && r.path.endsWith('/broadcast') && r.status === 200)).toBe(true);
  });

  it('record storage: an upload key the service echoes', async () => {
    const since = t.slack.mark();
    await t.slash('/record', 'storage', { user: USERS.admin });
    const opened = await t.waitForSlackCall('views.open', (c) => c.body.trigger_id !== 'test.trigger', { since });
    const view = opened.body.view as { private_metadata: string; blocks: unknown[] };
    const viewId = await openInSlack(view);
    const option = (value: string) => ({ text: { type: 'plain_text', text: value }, value });
    const field = (value: string) => ({ [RECORD_ACTION.field]: { type: 'plain_text_input', value } });
    const values = {
      [RECORD_BLOCK.storageType]: { [RECORD_ACTION.storageType]: { type: 'radio_buttons', selected_option: option('s3') } },
      [RECORD_BLOCK.accessKey]: field('AKIAEXAMPLEKEY1'),
      [RECORD_BLOCK.secretKey]: field(SECRET_KEY),
      [RECORD_BLOCK.bucket]: field('meeting-recordings'),
      [RECORD_BLOCK.endpoint]: field('https://s3.example.com'),
      [RECORD_BLOCK.fallback]: { [RECORD_ACTION.field]: { type: 'radio_buttons', selected_option: option('service') } },
    };
    echoing('PUT', '/archive/storage', SECRET_KEY);
    const [seq, line] = [t.slack.mark(), lines.length];
    await t.submitView(
      { callbackId: RECORD_CALLBACK.storageModal, viewId, privateMetadata: view.private_metadata, blocks: view.blocks, values },
      { user: USERS.admin },
    );
    await t.waitForSlackCall('views.update', (c) => c.body.view_id === viewId && JSON.stringify(c.body).includes('[redacted]'), { since: seq });
    expect(await everythingSince(seq, line)).not.toContain(SECRET_KEY);
    await t.submitView(
      { callbackId: RECORD_CALLBACK.storageModal, viewId, privateMetadata: view.private_metadata, blocks: view.blocks, values },
      { user: USERS.admin },
    );
    await t.waitForSlackCall('views.update', (c) => c.body.view_id === viewId && JSON.stringify(c.body).includes('Saved'), { since: seq });
    expect(t.emulator.control.uploadTarget(t.project.apiKey)).toEqual(expect.objectContaining({ config: expect.objectContaining({ secretKey: SECRET_KEY }) }));
  });

  it('dial with digest credentials: a SIP password the service echoes', async () => {
    const seeded = t.seedSession({ streams: 1 });
    const uri = 'sip:conference@pbx.example.com';
    const dialForm = async () => {
      const since = t.slack.mark();
      await t.slash('/dial', `${uri} ${seeded.sessionId} --auth`);
      return (await t.waitForSlackCall('views.open', () => true, { since })).body.view as { private_metadata: string };
    };
    const submit = (view: { private_metadata: string }, viewId: string) =>
      t.submitView({
        callbackId: CALLBACK.sipAuthModal,
        viewId,
        privateMetadata: view.private_metadata,
        values: {
          [BLOCK.sipAuthUsername]: { [ACTION.sipAuthUsername]: { type: 'plain_text_input', value: 'vidops' } },
          [BLOCK.sipAuthPassword]: { [ACTION.sipAuthPassword]: { type: 'plain_text_input', value: PASSWORD } },
        },
      });
    echoing('POST', '/dial', PASSWORD);
    const [seq, line] = [t.slack.mark(), lines.length];
    await submit(await dialForm(), 'V0SECDIAL1');
    await t.waitForSlackCall('views.update', (c) => c.body.view_id === 'V0SECDIAL1' && JSON.stringify(c.body).includes('[redacted]'), { since: seq });
    expect(await everythingSince(seq, line)).not.toContain(PASSWORD);
    await submit(await dialForm(), 'V0SECDIAL2');
    await t.waitForSlackCall('views.update', (c) => c.body.view_id === 'V0SECDIAL2' && JSON.stringify(c.body).includes('Dialed'), { since: seq });
  });

  it('a project secret the service echoes (any operation, here /mute)', async () => {
    const seeded = t.seedSession({ streams: 1 });
    echoing('POST', '/mute', t.project.apiSecret);
    const [seq, line] = [t.slack.mark(), lines.length];
    const res = await t.slash('/mute', `${seeded.streams[0]} ${seeded.sessionId}`);
    expect(JSON.stringify((await res.waitForResponse()).body)).toContain('[redacted]');
    expect(await everythingSince(seq, line)).not.toContain(t.project.apiSecret);
  });
});
