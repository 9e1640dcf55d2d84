/**
 * PostgreSQL restarted during a run, for real: a private server (its own data directory and port,
 * never the shared cluster) is stopped with `pg_ctl stop -m fast` — every open connection cut —
 * and started again, while the app, its poller and its outbox run on it. Nothing is lost or
 * repeated: each change of the recording reaches its card's thread once, also when the database
 * went away between the post reaching Slack and the outbox row being marked delivered. The app
 * keeps answering Slack while the database is away, and recovers by itself (the pool reconnects).
 *
 * Runs wherever PostgreSQL's server binaries are installed; under CI=true their absence fails.
 */
import { PostgresStore } from '../../src/store/postgres';
import { CHANNEL, startTestApp, type TestApp } from '../harness/app';
import { renderedText } from '../harness/text';
import { duplicates, postedKeys, threadTexts } from '../poller-e2e/helpers';
import { type PrivatePostgres, privatePostgresUnavailable, startPrivatePostgres } from './support/private-postgres';

const unavailable = privatePostgresUnavailable();
const LEASE_MS = 60_000;

function describePrivatePostgres(name: string, body: () => void): void {
  if (unavailable && process.env.CI === 'true') {
    describe(name, () =>
      it('needs PostgreSQL server binaries when CI=true', () => {
        throw new Error(unavailable);
      }),
    );
  } else if (unavailable) {
    console.warn(`Skipping ${name}: ${unavailable}`);
    describe.skip(name, () => it('needs PostgreSQL server binaries', () => undefined));
  } else {
    describe(name, body);
  }
}

jest.setTimeout(60_000);

describePrivatePostgres('PostgreSQL restarted during a run', () => {
  let pg: PrivatePostgres;
  let t: TestApp;
  const logs: string[] = [];
  const failures: unknown[] = [];
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown) => void rejections.push(reason);

  beforeAll(async () => {
    process.on('unhandledRejection', onRejection);
    pg = await startPrivatePostgres();
    const store = new PostgresStore({ connectionString: pg.url, maxConnections: 4, onIdleClientError: () => undefined });
    t = await startTestApp({ store, poller: true, logLevel: 'info', logStream: { write: (line: string) => void logs.push(line) } });
  });

  afterAll(async () => {
    await t?.close();
    await pg?.destroy();
    process.off('unhandledRejection', onRejection);
    expect(rejections).toEqual([]);
  });

  /** One poller turn as the running loops take it: a failed run is logged and the next one comes. */
  async function turn(ms: number): Promise<void> {
    await t.poller!.step(ms).catch((error: unknown) => void failures.push(error));
  }

  async function recordingWithCard(): Promise<{ archiveId: string; cardTs: string; sessionId: string }> {
    const { sessionId } = t.seedSession({ streams: 1 });
    const since = t.slack.mark();
    await t.slash('/record', `start ${sessionId}`);
    const card = await t.waitForSlackCall(
      'chat.postMessage',
      (c) => renderedText(c.body).includes('started recording') && renderedText(c.body).includes(sessionId),
      { since },
    );
    const cardTs = t.slack.messages(CHANNEL).find((m) => m.text === card.body.text && renderedText(m.blocks).includes(sessionId))!.ts;
    for (;;) {
      const [watch] = await t.store.listWatches({ kind: 'archive', sessionId });
      if (watch) return { archiveId: watch.resourceId, cardTs, sessionId };
      await t.services.ackGate.idle();
    }
  }

  const video = () => t.services.projects.client('prod');

  it('between deliveries: changes made while the database was down are told once, after it is back', async () => {
    const rec = await recordingWithCard();
    await turn(3_000);
    expect(threadTexts(t, rec.cardTs)).toEqual([]);

    await pg.stop();
    await video().archives.stop(rec.archiveId);
    const failedBefore = failures.length;
    await turn(3_000);
    await turn(3_000);
    expect(failures.length).toBeGreaterThan(failedBefore);
    expect(threadTexts(t, rec.cardTs)).toEqual([]);

    // Slack keeps being answered meanwhile: help needs no database; a command that does says so.
    const help = await t.slash('/record', 'help');
    expect(help.status).toBe(200);
    expect(renderedText(help.ack)).toContain('/record');
    const list = await t.slash('/video', 'aliases');
    expect(list.status).toBe(200);
    expect(renderedText((await list.waitForResponse()).body)).toMatch(/went wrong on our side/);
    // The duplicate-delivery check could not record them, and served them anyway.
    expect(logs.filter((line) => line.includes('serving it without the duplicate check')).length).toBeGreaterThanOrEqual(2);

    await pg.start();
    for (let i = 0; i < 6; i++) await turn(10_000);
    expect(threadTexts(t, rec.cardTs)).toEqual(['Recording stopped on request', expect.stringMatching(/^Recording available/)]);
    expect(duplicates(postedKeys(t))).toEqual([]);
  });

  it('mid-delivery: the post reached Slack, the database went away before it was marked delivered — not posted again', async () => {
    const rec = await recordingWithCard();
    await turn(3_000);
    const held = t.slack.holdNext('chat.postMessage', (body) => body.thread_ts === rec.cardTs);
    await video().archives.stop(rec.archiveId);
    const failedBefore = failures.length;
    const stepping = turn(3_000);
    await held.arrived;
    await pg.stop();
    held.release();
    await stepping;
    expect(failures.length).toBe(failedBefore + 1);
    // The reply is in the thread, but the outbox could not record it.
    expect(threadTexts(t, rec.cardTs)).toEqual(['Recording stopped on request']);

    await pg.start();
    const mark = t.slack.mark();
    // Past the row's lease: another delivery round claims it, finds the post and does not repeat it.
    await turn(LEASE_MS + 1_000);
    for (let i = 0; i < 6; i++) await turn(10_000);
    expect(threadTexts(t, rec.cardTs)).toEqual(['Recording stopped on request', expect.stringMatching(/^Recording available/)]);
    expect(duplicates(postedKeys(t))).toEqual([]);
    expect(t.slack.callsOf('conversations.replies', mark).length).toBeGreaterThan(0);
    const rows = await t.store.listOutbox(`T0TEST:${CHANNEL}:archive:${rec.archiveId}`);
    expect(rows.filter((r) => r.payload.type === 'reply').every((r) => r.deliveredAt !== undefined)).toBe(true);
  });

  it('the app serves commands again without a restart of its own', async () => {
    const { sessionId } = t.seedSession({ streams: 1 });
    const since = t.slack.mark();
    await t.slash('/video', `alias drill ${sessionId}`);
    await t.waitForSlackCall('chat.postMessage', (c) => renderedText(c.body).includes('`drill`'), { since });
    expect((await t.store.getAlias('T0TEST', 'drill'))?.sessionId).toBe(sessionId);
    const list = await t.slash('/video', 'aliases');
    expect(renderedText((await list.waitForResponse()).body)).toContain('drill');
  });
});
