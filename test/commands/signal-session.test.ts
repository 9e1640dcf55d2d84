/** End to end: /signal and /session create. */
import { CHANNEL, USERS, startTestApp, type TestApp } from '../harness/app';
import { sentPayloadProblems } from '../harness/block-kit';
import { renderedText, visibleText } from '../harness/text';

describe('/signal and /session', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    expect(sentPayloadProblems(t.slack.calls, t.slack.responses)).toEqual([]);
    await t.close();
  });

  describe('/signal', () => {
    it('sends to every connection, with quoted data, and tells the channel', async () => {
      const seeded = t.seedSession({ streams: 2 });
      const since = t.slack.mark();
      await t.slash('/signal', `${seeded.sessionId} chat “Recording starts in one minute”`);
      const post = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL, { since });
      expect(renderedText(post.body)).toContain('sent a `chat` signal to everyone in session');
      for (const connection of seeded.connections) {
        expect(t.emulator.control.signalsReceived(t.project.apiKey, seeded.sessionId, connection)).toEqual([
          { type: 'chat', data: 'Recording starts in one minute', from: '' },
        ]);
      }
    });

    it('sends to one connection with --to', async () => {
      const seeded = t.seedSession({ streams: 2 });
      const since = t.slack.mark();
      await t.slash('/signal', `${seeded.sessionId} --to ${seeded.connections[1]} layout focus`);
      await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL, { since });
      expect(t.emulator.control.signalsReceived(t.project.apiKey, seeded.sessionId, seeded.connections[0]!)).toEqual([]);
      expect(t.emulator.control.signalsReceived(t.project.apiKey, seeded.sessionId, seeded.connections[1]!)).toEqual([
        { type: 'layout', data: 'focus', from: '' },
      ]);
    });

    it('escapes what the signal says in the channel notice', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const since = t.slack.mark();
      await t.slash('/signal', `${seeded.sessionId} chat "<!channel> look &amp; see"`);
      const post = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL, { since });
      expect(visibleText(post.body)).not.toContain('<!channel>');
      expect(renderedText(post.body)).toContain('<!channel> look & see');
      expect(t.emulator.control.signalsReceived(t.project.apiKey, seeded.sessionId, seeded.connections[0]!)[0]!.data).toBe('<!channel> look & see');
    });

    it('explains a connection that is not connected (404)', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const res = await t.slash('/signal', `${seeded.sessionId} --to e9f8c166-6c67-440d-994a-04fb6dfed007 chat hi`);
      const reply = await res.waitForResponse();
      expect(renderedText(reply.body)).toMatch(/Connection `e9f8c166-6c67-440d-994a-04fb6dfed007` is not connected to session .*; nothing was sent/);
    });

    it('turns the client-side validation (type over 128 bytes) into its message, without calling the service', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const logBefore = t.emulator.control.requestLog().length;
      const res = await t.slash('/signal', `${seeded.sessionId} ${'é'.repeat(65)} hi`);
      const reply = await res.waitForResponse();
      expect(renderedText(reply.body)).toMatch(/type: .*128 bytes.* — nothing was sent; fix it and try again/);
      expect(t.emulator.control.requestLog().slice(logBefore)).toEqual([]);
      const [audit] = await t.store.listAudit('T0TEST', 1);
      expect(audit).toEqual(expect.objectContaining({ command: '/signal', outcome: 'error', error: 'VideoValidationError' }));
    });

    it('asks to quote data with spaces', async () => {
      const res = await t.slash('/signal', 'chat hello there world');
      expect(renderedText(res.ack)).toMatch(/too many words: “world”.*put text with spaces in quotes/);
    });
  });

  describe('/session create', () => {
    it('creates a routed session, stores the alias, binds the channel with --use, and announces it', async () => {
      const since = t.slack.mark();
      await t.slash('/session', 'create Standup --use', { channel: 'C0STANDUP' });
      const post = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === 'C0STANDUP', { since });
      const alias = await t.store.getAlias('T0TEST', 'standup');
      expect(alias).toEqual(expect.objectContaining({ alias: 'standup', projectName: 'prod', createdBy: USERS.moderator }));
      const session = t.emulator.control.getSession(t.project.apiKey, alias!.sessionId);
      expect(session.mediaMode).toBe('routed');
      expect(await t.store.getChannelBinding('T0TEST', 'C0STANDUP')).toEqual(expect.objectContaining({ sessionId: alias!.sessionId, projectName: 'prod' }));
      const text = renderedText(post.body);
      expect(text).toContain('created a routed session `standup`');
      expect(text).toContain(alias!.sessionId);
      expect(text).toContain('It is now this channel’s default session.');

      // The channel default now works without naming the session.
      const seededStreams = t.emulator.control.connect(t.project.apiKey, alias!.sessionId);
      const streamId = t.emulator.control.publish(t.project.apiKey, alias!.sessionId, seededStreams, { name: 'Host' });
      const since2 = t.slack.mark();
      await t.slash('/mute', streamId, { channel: 'C0STANDUP' });
      await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === 'C0STANDUP', { since: since2 });
      expect(t.emulator.control.getSession(t.project.apiKey, alias!.sessionId).streams[0]!.muted).toBe(true);
    });

    it('passes archive, e2ee and location options through', async () => {
      const since = t.slack.mark();
      await t.slash('/session', 'create townhall --archive always --archive-name "Town hall" --archive-resolution 1280x720 --e2ee --location 10.1.2.3');
      await t.waitForSlackCall('chat.postMessage', (c) => renderedText(c.body).includes('townhall'), { since });
      const alias = await t.store.getAlias('T0TEST', 'townhall');
      const session = t.emulator.control.getSession(t.project.apiKey, alias!.sessionId);
      expect(session).toEqual(expect.objectContaining({ archiveMode: 'always', archiveResolution: '1280x720', e2ee: true, location: '10.1.2.3' }));
    });

    it('creates a relayed session', async () => {
      const since = t.slack.mark();
      await t.slash('/session', 'create p2p --relayed');
      await t.waitForSlackCall('chat.postMessage', (c) => renderedText(c.body).includes('relayed session'), { since });
      const alias = await t.store.getAlias('T0TEST', 'p2p');
      expect(t.emulator.control.getSession(t.project.apiKey, alias!.sessionId).mediaMode).toBe('relayed');
    });

    it('refuses an alias that is taken, creating nothing', async () => {
      await t.store.putAlias({ teamId: 'T0TEST', alias: 'taken', projectName: 'prod', sessionId: '2_MX4existing000000', createdBy: 'U1', createdAt: 0 });
      const logBefore = t.emulator.control.requestLog().length;
      const res = await t.slash('/session', 'create taken');
      const reply = await res.waitForResponse();
      expect(renderedText(reply.body)).toMatch(/The alias `taken` already names session `2_MX4existing000000`.*Nothing was created/);
      expect(t.emulator.control.requestLog().slice(logBefore)).toEqual([]);
    });

    it('turns the service’s own validation of --location into a sentence', async () => {
      const res = await t.slash('/session', 'create --location not-an-ip');
      const reply = await res.waitForResponse();
      expect(renderedText(reply.body)).toMatch(/location: .* — nothing was sent/);
    });

    it('rejects combinations the service would refuse as usage errors', async () => {
      const res = await t.slash('/session', 'create --archive-name "Town hall"');
      expect(renderedText(res.ack)).toContain('--archive-name: applies only with `--archive always`');
      expect(renderedText(res.ack)).toContain('/session create [alias] [--relayed]');
    });
  });
});
