/**
 * Slack delivers a command, a click or a form again when the first ack was late
 * (`X-Slack-Retry-Num: 1`, `X-Slack-Retry-Reason: http_timeout`). The state change happens once:
 * one archive started, one card, one stop, one mute — whether the copy arrives after the first
 * delivery finished, while it is still running, or at another replica sharing the PostgreSQL
 * store. The copy is answered 200 with an empty body.
 */
import { encodeSessionOption } from '../../src/interaction/session-ref';
import { SqliteStore } from '../../src/store';
import { ACTION, BLOCK, CALLBACK, RECORD_ACTION } from '../../src/views/ids';
import { CHANNEL, startTestApp, type TestApp } from '../harness/app';
import { sentPayloadProblems } from '../harness/block-kit';
import { buttonValue, renderedText } from '../harness/text';
import { describePostgres, freshSchema, storeIn } from '../store/postgres-harness';
import { type Delivery, clickDelivery, deliver, slashDelivery, viewDelivery } from './support/deliveries';
import { type Replica, startReplica } from './support/replica';

const DUPLICATE_LOG = 'duplicate Slack delivery acknowledged without repeating its work';

interface Counts {
  archiveStarts: number;
  archiveStops: number;
  mutes: number;
}

function counter(t: TestApp): () => Counts {
  return () => {
    const log = t.emulator.control.requestLog().filter((e) => e.method === 'POST');
    return {
      archiveStarts: log.filter((e) => /\/archive$/.test(e.path)).length,
      archiveStops: log.filter((e) => /\/archive\/[^/]+\/stop$/.test(e.path)).length,
      mutes: log.filter((e) => /\/mute$/.test(e.path)).length,
    };
  };
}

/**
 * Waits until everything sent before has been served: a later command's answer comes after the
 * work of earlier deliveries was at least started, and the ack gate lets waiting work finish.
 */
async function settle(t: TestApp): Promise<void> {
  const res = await t.slash('/video', 'aliases');
  await res.waitForResponse();
  await t.services.ackGate.idle();
}

function runDuplicateScenarios(
  name: string,
  setup: () => Promise<{
    t: TestApp;
    second: (d: Delivery, retryNum: number) => Promise<{ status: number; body: string }>;
    logs: string[];
    close(): Promise<void>;
  }>,
): void {
  describe(name, () => {
    let t: TestApp;
    let logs: string[];
    let sendRetry: (d: Delivery, retryNum: number) => Promise<{ status: number; body: string }>;
    let close: () => Promise<void>;
    let counts: () => Counts;

    beforeAll(async () => {
      ({ t, second: sendRetry, logs, close } = await setup());
      counts = counter(t);
    });

    afterAll(async () => {
      expect(sentPayloadProblems(t.slack.calls, t.slack.responses)).toEqual([]);
      await close();
    });

    const duplicatesLogged = () => logs.filter((line) => line.includes(DUPLICATE_LOG)).length;
    const cards = (since: number) =>
      t.slack.callsOf('chat.postMessage', since).filter((c) => c.body.channel === CHANNEL && renderedText(c.body).includes('started recording'));

    it('a slash command retried after its first delivery finished starts one recording and posts one card', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const before = counts();
      const loggedBefore = duplicatesLogged();
      const since = t.slack.mark();
      const responseUrl = t.slack.newResponseUrl();
      const command = slashDelivery('/record', `start ${seeded.sessionId} Standup`, responseUrl);

      expect((await deliver(t.url, command.signed())).status).toBe(200);
      await t.waitForSlackCall('chat.postMessage', (c) => renderedText(c.body).includes('started recording'), { since });
      const retry = await sendRetry(command, 1);
      expect(retry).toEqual({ status: 200, body: '' });
      await settle(t);

      expect(counts().archiveStarts - before.archiveStarts).toBe(1);
      expect(cards(since)).toHaveLength(1);
      expect(duplicatesLogged() - loggedBefore).toBe(1);
    });

    it('a slash command and its retry arriving together start one recording', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const before = counts();
      const since = t.slack.mark();
      const command = slashDelivery('/record', `start ${seeded.sessionId}`, t.slack.newResponseUrl());

      const answers = await Promise.all([deliver(t.url, command.signed()), sendRetry(command, 1), sendRetry(command, 2)]);
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
      await t.waitForSlackCall('chat.postMessage', (c) => renderedText(c.body).includes('started recording'), { since });
      await settle(t);

      expect(counts().archiveStarts - before.archiveStarts).toBe(1);
      expect(cards(since)).toHaveLength(1);
    });

    it('a Stop click retried stops the recording once and redraws the card once', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const since = t.slack.mark();
      await t.slash('/record', `start ${seeded.sessionId}`);
      const card = await t.waitForSlackCall('chat.postMessage', (c) => renderedText(c.body).includes('started recording'), { since });
      const before = counts();
      const loggedBefore = duplicatesLogged();
      const responseUrl = t.slack.newResponseUrl();
      const responseId = responseUrl.slice(responseUrl.lastIndexOf('/') + 1);
      const click = clickDelivery(RECORD_ACTION.stop, buttonValue(card.body, RECORD_ACTION.stop), responseUrl);

      expect((await deliver(t.url, click.signed())).status).toBe(200);
      await t.slack.waitForResponse(responseId, (r) => r.body.replace_original === true);
      expect(await sendRetry(click, 1)).toEqual({ status: 200, body: '' });
      await settle(t);

      expect(counts().archiveStops - before.archiveStops).toBe(1);
      const answers = t.slack.responsesTo(responseId);
      expect(answers).toHaveLength(1);
      expect(renderedText(answers[0]!.body)).toContain('Stopped');
      expect(renderedText(answers[0]!.body)).not.toMatch(/could not|refused|already/i);
      expect(duplicatesLogged() - loggedBefore).toBe(1);
    });

    it('a modal submission retried mutes everyone once and tells the channel once', async () => {
      const seeded = t.seedSession({ streams: 2 });
      const before = counts();
      const since = t.slack.mark();
      const viewId = `V0DUP${Date.now()}`;
      const submission = viewDelivery(CALLBACK.muteEveryoneModal, viewId, {
        [BLOCK.sessionPicker]: {
          [ACTION.sessionPicker]: {
            type: 'external_select',
            selected_option: { text: { type: 'plain_text', text: 'x' }, value: encodeSessionOption('prod', seeded.sessionId) },
          },
        },
        [BLOCK.noticeChannel]: { [ACTION.noticeChannel]: { type: 'conversations_select', selected_conversation: 'C0ONCALL' } },
      });

      const first = await deliver(t.url, submission.signed());
      expect(JSON.parse(first.body)).toEqual(expect.objectContaining({ response_action: 'update' }));
      await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === 'C0ONCALL' && renderedText(c.body).includes('muted everyone'), { since });
      expect(await sendRetry(submission, 1)).toEqual({ status: 200, body: '' });
      await settle(t);

      expect(counts().mutes - before.mutes).toBe(1);
      expect(t.slack.callsOf('chat.postMessage', since).filter((c) => c.body.channel === 'C0ONCALL')).toHaveLength(1);
      expect(t.emulator.control.getSession(t.project.apiKey, seeded.sessionId).mute.active).toBe(true);
    });

    it('a new click on the same button (a new delivery, not a retry) is served', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const since = t.slack.mark();
      await t.slash('/record', `start ${seeded.sessionId}`);
      const card = await t.waitForSlackCall('chat.postMessage', (c) => renderedText(c.body).includes('started recording'), { since });
      const value = buttonValue(card.body, RECORD_ACTION.stop);
      const before = counts();
      const first = t.slack.newResponseUrl();
      const again = t.slack.newResponseUrl();
      await deliver(t.url, clickDelivery(RECORD_ACTION.stop, value, first).signed());
      await t.slack.waitForResponse(first.slice(first.lastIndexOf('/') + 1));
      await deliver(t.url, clickDelivery(RECORD_ACTION.stop, value, again).signed());
      // The second click is a person's second tap: it reaches the service, which says it is stopped.
      await t.slack.waitForResponse(again.slice(again.lastIndexOf('/') + 1));
      expect(counts().archiveStops - before.archiveStops).toBe(2);
    });
  });
}

function logCollector(): { logs: string[]; stream: { write(line: string): void } } {
  const logs: string[] = [];
  return { logs, stream: { write: (line: string) => void logs.push(line) } };
}

runDuplicateScenarios('duplicate deliveries, one app (SQLite)', async () => {
  const { logs, stream } = logCollector();
  const t = await startTestApp({ logLevel: 'info', logStream: stream });
  return { t, logs, second: (d, n) => deliver(t.url, d.signed(n)), close: () => t.close() };
});

describePostgres('duplicate deliveries across two replicas sharing PostgreSQL', () => {
  runDuplicateScenarios('the retry reaches the other replica', async () => {
    const schema = freshSchema();
    const { logs, stream } = logCollector();
    const t = await startTestApp({ logLevel: 'info', logStream: stream, store: storeIn(schema) });
    const replica: Replica = await startReplica(t, storeIn(schema), { logStream: stream });
    return {
      t,
      logs,
      second: (d, n) => deliver(replica.url, d.signed(n)),
      close: async () => {
        await replica.close();
        await t.close();
      },
    };
  });
});

describe('when a delivery is claimed', () => {
  let t: TestApp;
  let counts: () => Counts;
  const store = new SqliteStore(':memory:');

  beforeAll(async () => {
    t = await startTestApp({ store });
    counts = counter(t);
  });

  afterAll(() => t.close());

  /** Holds the store's next delivery claim until the test answers it; `claimed` resolves when it is made. */
  function holdClaims(): { held: ((first: boolean) => void)[]; claimed: Promise<void>; restore(): void } {
    const held: ((first: boolean) => void)[] = [];
    let claimedNow = (): void => undefined;
    const claimed = new Promise<void>((resolve) => (claimedNow = resolve));
    const spy = jest.spyOn(store, 'claimDelivery').mockImplementationOnce(
      () =>
        new Promise<boolean>((resolve) => {
          held.push(resolve);
          claimedNow();
        }),
    );
    return { held, claimed, restore: () => spy.mockRestore() };
  }

  it('a command is acked before its claim is answered, and does its work only once the claim says it is the first', async () => {
    const seeded = t.seedSession({ streams: 1 });
    const before = counts();
    const claims = holdClaims();
    try {
      const command = slashDelivery('/record', `start ${seeded.sessionId}`, t.slack.newResponseUrl());
      // The ack comes back while the claim (a store write that may wait for the poller's lock) is pending.
      expect(await deliver(t.url, command.signed())).toEqual({ status: 200, body: '' });
      expect(claims.held).toHaveLength(1);
      expect(counts().archiveStarts).toBe(before.archiveStarts);

      const since = t.slack.mark();
      claims.held[0]!(true);
      await t.waitForSlackCall('chat.postMessage', (c) => renderedText(c.body).includes('started recording'), { since });
      expect(counts().archiveStarts - before.archiveStarts).toBe(1);
    } finally {
      claims.restore();
    }
  });

  it("a command's answer comes back while its claim is still pending (the claim follows the ack)", async () => {
    const claims = holdClaims();
    try {
      const help = await deliver(t.url, slashDelivery('/video', 'help', t.slack.newResponseUrl()).signed());
      expect(help.status).toBe(200);
      expect(JSON.parse(help.body)).toEqual(expect.objectContaining({ response_type: 'ephemeral', blocks: expect.any(Array) }));
      expect(help.body).toContain('/video alias');
      expect(claims.held).toHaveLength(1);
      claims.held[0]!(true);
    } finally {
      claims.restore();
    }
  });

  it('a command whose claim finds a copy is acked and does nothing', async () => {
    const seeded = t.seedSession({ streams: 1 });
    const before = counts();
    const claims = holdClaims();
    try {
      const command = slashDelivery('/record', `start ${seeded.sessionId}`, t.slack.newResponseUrl());
      expect((await deliver(t.url, command.signed(1))).status).toBe(200);
      claims.held[0]!(false);
      await settle(t);
      expect(counts().archiveStarts).toBe(before.archiveStarts);
    } finally {
      claims.restore();
    }
  });

  it('a form submission is claimed before its listener runs: no ack, and nothing started, while the claim is pending', async () => {
    const seeded = t.seedSession({ streams: 2 });
    const before = counts();
    const claims = holdClaims();
    try {
      const submission = viewDelivery(CALLBACK.muteEveryoneModal, `V0HELD${Date.now()}`, {
        [BLOCK.sessionPicker]: {
          [ACTION.sessionPicker]: {
            type: 'external_select',
            selected_option: { text: { type: 'plain_text', text: 'x' }, value: encodeSessionOption('prod', seeded.sessionId) },
          },
        },
        [BLOCK.noticeChannel]: { [ACTION.noticeChannel]: { type: 'conversations_select', selected_conversation: 'C0ONCALL' } },
      });
      let answered = false;
      const answer = deliver(t.url, submission.signed()).then((a) => {
        answered = true;
        return a;
      });
      await claims.claimed;
      // The listener (which acks) can only run once the claim is answered: a few turns change nothing.
      for (let turn = 0; turn < 5; turn++) await new Promise(setImmediate);
      expect(answered).toBe(false);
      expect(counts().mutes).toBe(before.mutes);
      claims.held[0]!(true);
      expect((await answer).status).toBe(200);
      await settle(t);
      expect(counts().mutes - before.mutes).toBe(1);
    } finally {
      claims.restore();
    }
  });
});
